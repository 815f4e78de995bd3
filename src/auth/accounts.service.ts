import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import { Database } from '../common/database/database';
import { cursorPosition, Paged, ListRequest, toPaged } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import { fieldProblem, NotFoundProblem } from '../common/problems/problem';
import { AuthCache } from './auth-cache';
import {
  AccountResponse,
  MeResponse,
  SessionResponse,
  toAccountDetails,
  toAccountResponse,
  toMeResponse,
  toSessionResponse,
  TokenResponse,
} from './auth.mapper';
import { CredentialsService } from './credentials.service';
import { ChangePasswordDto, UpdateMeDto } from './dto/account.dto';
import { UserEntity } from './entities/user.entity';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordService } from './password.service';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './store/users.repository';
import { TokensService } from './tokens.service';
import { UsersService } from './users.service';

/**
 * An account's credentials: what a user changes about their own account (display name,
 * password, tokens), and what an administrator does about someone else's (their tokens,
 * sessions and sign-in throttle). Changes apply at once on this instance (the credential
 * cache forgets the user) and within AUTH_CACHE_SECONDS on the others.
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly db: Database,
    private readonly users: UsersService,
    private readonly userRows: UsersRepository,
    private readonly passwords: PasswordService,
    private readonly sessions: SessionsService,
    private readonly tokens: TokensService,
    private readonly throttle: LoginThrottleService,
    private readonly cache: AuthCache,
    private readonly credentials: CredentialsService,
  ) {}

  /** GET /api/me: the caller as signed in (a token's scope narrows the role). */
  me(caller: AuthUser): MeResponse {
    return toMeResponse(caller);
  }

  /** GET /api/me/account: the caller's account as stored (email, last sign-in). */
  async account(me: AuthUser): Promise<AccountResponse> {
    return toAccountDetails(await this.users.load(me.id));
  }

  /**
   * PATCH /api/me. A new password needs the current one (checked like a sign-in, so it counts
   * against the login throttle) and ends the user's other sessions; `revokeTokens` revokes
   * every token they have.
   */
  async updateOwn(me: AuthUser, input: UpdateMeDto, ip: string): Promise<MeResponse> {
    const user = await this.users.load(me.id);
    if (input.password !== undefined) {
      await this.checkCurrentPassword(user, input.currentPassword, ip);
    }
    if (input.displayName !== undefined) user.displayName = input.displayName;
    if (input.email !== undefined) user.email = input.email;
    if (input.password !== undefined) user.passwordHash = await this.passwords.hash(input.password);
    user.updatedAt = new Date();
    const sessionsEnded = await this.db.transaction(async (tx) => {
      await this.userRows.save(user, tx);
      return input.password === undefined ? 0 : this.sessions.endAllOf(user.id, me.sessionId, tx);
    });
    this.cache.invalidateUser(user.id);
    const tokensRevoked = input.revokeTokens ? await this.tokens.revokeAll(user.id, me.id) : 0;
    audit('user.updated', {
      actorId: me.id,
      target: `user:${user.id}`,
      changed: (['displayName', 'email', 'password'] as const).filter(
        (k) => input[k] !== undefined,
      ),
      sessionsEnded,
      tokensRevoked,
    });
    return toAccountResponse(user);
  }

  /**
   * POST /api/me/password: as PATCH /api/me with a password (the current one checked like a
   * sign-in), answering how many of the caller's other sessions ended.
   */
  async changePassword(
    me: AuthUser,
    input: ChangePasswordDto,
    ip: string,
  ): Promise<{ sessionsEnded: number }> {
    const user = await this.users.load(me.id);
    await this.checkCurrentPassword(user, input.currentPassword, ip);
    user.passwordHash = await this.passwords.hash(input.newPassword);
    user.updatedAt = new Date();
    const sessionsEnded = await this.db.transaction(async (tx) => {
      await this.userRows.save(user, tx);
      return this.sessions.endAllOf(user.id, me.sessionId, tx);
    });
    this.cache.invalidateUser(user.id);
    audit('user.updated', {
      actorId: me.id,
      target: `user:${user.id}`,
      changed: ['password'],
      sessionsEnded,
      tokensRevoked: 0,
    });
    return { sessionsEnded };
  }

  /** GET /api/me/sessions: the caller's live browser sessions, most recently seen first. */
  async listSessions(me: AuthUser, page: ListRequest): Promise<Paged<SessionResponse>> {
    const rows = await this.sessions.listLiveOf(me.id, cursorPosition(page.cursor), page.limit + 1);
    return toPaged(
      rows,
      page.limit,
      (s) => toSessionResponse(s, me.sessionId),
      (s) => ({ at: s.lastSeenAt.toISOString(), id: s.id }),
    );
  }

  /**
   * DELETE /api/me/sessions/{id}: signs one of the caller's sessions out (this one too, if it
   * is named); another person's session, or none, is 404 `session_not_found`.
   */
  async endOwnSession(me: AuthUser, sessionId: string): Promise<void> {
    // A session's id is a SHA-256 in hex; anything else names no session, like a missing one.
    const known =
      /^[0-9a-f]{64}$/.test(sessionId) && (await this.sessions.endOneOf(me.id, sessionId));
    if (!known) throw new NotFoundProblem('session');
    this.credentials.forgetSession(sessionId);
    audit('session.ended', { actorId: me.id, target: `user:${me.id}`, count: 1 });
  }

  /** DELETE /api/me/sessions: every session of the caller but this one; answers how many. */
  async endOtherSessions(me: AuthUser): Promise<number> {
    const ended = await this.sessions.endAllOf(me.id, me.sessionId);
    this.cache.invalidateUser(me.id);
    audit('session.ended', { actorId: me.id, target: `user:${me.id}`, count: ended });
    return ended;
  }

  /** A user's tokens for an administrator; 404 for an unknown user. */
  async listTokens(userId: string, page: ListRequest): Promise<Paged<TokenResponse>> {
    await this.users.load(userId);
    return this.tokens.list(userId, page);
  }

  async revokeToken(userId: string, tokenId: string, admin: AuthUser): Promise<void> {
    await this.users.load(userId);
    await this.tokens.revoke(userId, tokenId, admin.id);
  }

  /** Signs the user out everywhere (the administrator's own sessions too, if it is them). */
  async endSessions(userId: string, admin: AuthUser): Promise<void> {
    await this.users.load(userId);
    const ended = await this.sessions.endAllOf(userId);
    this.cache.invalidateUser(userId);
    audit('session.ended', { actorId: admin.id, target: `user:${userId}`, count: ended });
  }

  /** Clears the account's failed sign-in counter; `actorId` null: the CLI. */
  async unlock(user: UserEntity, actorId: string | null): Promise<void> {
    await this.throttle.clearAccount(user.usernameKey);
    audit('user.unlocked', { actorId, target: `user:${user.id}`, username: user.username });
  }

  async unlockById(userId: string, admin: AuthUser): Promise<void> {
    await this.unlock(await this.users.load(userId), admin.id);
  }

  private async checkCurrentPassword(
    user: UserEntity,
    currentPassword: string | undefined,
    ip: string,
  ) {
    if (currentPassword === undefined) {
      throw fieldProblem(
        'currentPassword',
        'required',
        'Send your current password to set a new one.',
      );
    }
    await this.throttle.registerAttempt(user.usernameKey, ip);
    if (!(await this.passwords.verify(user.passwordHash, currentPassword))) {
      audit('auth.login.failed', {
        actorId: user.id,
        target: `user:${user.id}`,
        reason: 'wrong_current_password',
        ip,
      });
      throw fieldProblem('currentPassword', 'wrong_password', 'The current password is wrong.');
    }
    await this.throttle.recordSuccess(user.usernameKey, ip);
  }
}
