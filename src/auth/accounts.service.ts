import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import { Database } from '../common/database/database';
import { Paged, ListRequest } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import { fieldProblem } from '../common/problems/problem';
import { AuthCache } from './auth-cache';
import { MeResponse, toAccountResponse, toMeResponse, TokenResponse } from './auth.mapper';
import { UpdateMeDto } from './dto/account.dto';
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
  ) {}

  /** GET /api/me: the caller as signed in (a token's scope narrows the role). */
  me(caller: AuthUser): MeResponse {
    return toMeResponse(caller);
  }

  /**
   * PATCH /api/me. A new password needs the current one (checked like a sign-in, so it counts
   * against the login throttle) and ends the user's other sessions; `revokeTokens` revokes
   * every token they have.
   */
  async updateOwn(me: AuthUser, input: UpdateMeDto, ip: string): Promise<MeResponse> {
    const user = await this.users.load(me.id);
    if (input.password !== undefined) await this.checkCurrentPassword(user, input, ip);
    if (input.displayName !== undefined) user.displayName = input.displayName;
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
      changed: (['displayName', 'password'] as const).filter((k) => input[k] !== undefined),
      sessionsEnded,
      tokensRevoked,
    });
    return toAccountResponse(user);
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

  private async checkCurrentPassword(user: UserEntity, input: UpdateMeDto, ip: string) {
    if (input.currentPassword === undefined) {
      throw fieldProblem(
        'currentPassword',
        'required',
        'Send your current password to set a new one.',
      );
    }
    await this.throttle.registerAttempt(user.usernameKey, ip);
    if (!(await this.passwords.verify(user.passwordHash, input.currentPassword))) {
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
