import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import type { MailConfig } from '../../common/config/mail-config';
import { Database } from '../../common/database/database';
import { audit } from '../../common/logging/audit';
import { composeMessage } from '../../common/mail/message';
import { Mailer } from '../../common/mail/mailer';
import { ForbiddenProblem, NotFoundProblem } from '../../common/problems/problem';
import { RateLimitGuard } from '../../common/rate-limit/rate-limit.guard';
import { AuthCache } from '../auth-cache';
import { UserEntity } from '../entities/user.entity';
import { LoginPolicy } from '../login-policy';
import { LoginThrottleService } from '../login-throttle.service';
import { PasswordService } from '../password.service';
import { SessionsService } from '../sessions.service';
import { UsersRepository } from '../store/users.repository';
import { consoleLink, linkTokenHash, LinkGoneProblem, newLinkToken } from './mail-links';
import { MailLinksRepository, PasswordResetRecord } from './mail-links.repository';
import { PasswordResetDone, PasswordResetRequested } from './mail.dto';

/** A reset link works for 30 minutes. */
export const RESET_TTL_MS = 30 * 60_000;

/** The one answer to every accepted request, whether or not an account has the address. */
export const RESET_REQUESTED: PasswordResetRequested = {
  detail:
    'If an account has this address, a link to set a new password is on its way. It works once, for 30 minutes.',
};

/**
 * "Forgot password?": a single-use link (30 minutes, kept hashed) mailed to the accounts with
 * the address; using it sets the password and ends every session of the account. Off without
 * SMTP. A request answers the same words, status and time whether or not the address is known:
 * the lookup and the mail happen after the answer. An account LOCAL_LOGIN=off keeps from kb
 * passwords is mailed where to sign in instead of a link, and an older link is refused.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger('PasswordReset');

  constructor(
    private readonly db: Database,
    private readonly links: MailLinksRepository,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly loginPolicy: LoginPolicy,
    private readonly cache: AuthCache,
    private readonly mailer: Mailer,
    private readonly rateLimits: RateLimitGuard,
    @InjectConfig('http') private readonly http: HttpConfig,
    @InjectConfig('mail') private readonly mail: MailConfig,
  ) {}

  get enabled(): boolean {
    return this.mailer.enabled;
  }

  private assertEnabled(): void {
    if (!this.enabled) {
      throw new ForbiddenProblem(
        'password_reset_off',
        'Password reset by email is off on this server (no mail server is configured). Ask an administrator to set a new password.',
      );
    }
  }

  /** POST /auth/password-reset: counted per address and per client before anything else. */
  async request(email: string, ip: string): Promise<PasswordResetRequested> {
    this.assertEnabled();
    const address = email.trim().toLowerCase();
    const { resetLimitPerAddress, resetLimitPerClient } = this.mail;
    const refused =
      (await this.rateLimits.spendOn('reset-client', ip, resetLimitPerClient)) ??
      (await this.rateLimits.spendOn('reset-address', address, resetLimitPerAddress));
    if (refused) {
      audit('auth.throttled', {
        actorId: null,
        target: 'password_reset',
        ip,
        reason: 'rate_limited',
      });
      throw refused;
    }
    audit('auth.password_reset.requested', {
      actorId: null,
      target: `email-domain:${address.slice(address.lastIndexOf('@') + 1)}`,
      ip,
    });
    // Not awaited: known and unknown addresses answer alike, in the same time.
    void this.issue(address).catch((error: unknown) =>
      this.logger.error(`Issuing a password reset failed: ${String(error)}`),
    );
    return RESET_REQUESTED;
  }

  private async issue(address: string): Promise<void> {
    const accounts = await this.users.listActiveByEmail(address);
    for (const user of accounts) {
      if (!this.loginPolicy.allowsPassword(user)) {
        this.mailer.send(this.noPasswordMessage(user));
        continue;
      }
      const { token, hash } = newLinkToken();
      const now = new Date();
      await this.links.insertReset({
        tokenHash: hash,
        userId: user.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESET_TTL_MS),
        usedAt: null,
      });
      this.mailer.send(
        this.message(user, consoleLink(this.http.publicUrl, '/reset-password', token)),
      );
    }
  }

  private message(user: UserEntity, link: string) {
    return composeMessage({
      to: user.email!,
      kind: 'password_reset',
      subject: 'Set a new kb password',
      paragraphs: [
        `Someone asked to set a new password for the kb account "${user.username}".`,
        'Open the link below to choose one. It works once, for 30 minutes, and signs the account out everywhere.',
      ],
      action: { label: 'Set a new password', url: link },
      after: ['If you did not ask for this, ignore this email: your password stays as it is.'],
    });
  }

  private noPasswordMessage(user: UserEntity) {
    return composeMessage({
      to: user.email!,
      kind: 'password_reset',
      subject: 'Signing in to kb',
      paragraphs: [
        `Someone asked to set a new password for the kb account "${user.username}".`,
        'Passwords kept by kb are turned off for this account: sign in with your organisation’s single sign-on or directory account instead.',
      ],
      action: { label: 'Sign in', url: `${this.http.publicUrl ?? ''}/login` },
      after: ['If you did not ask for this, ignore this email.'],
    });
  }

  /** POST /auth/password-reset/confirm: sets the password; ends every session of the account. */
  async reset(token: string, password: string): Promise<PasswordResetDone> {
    this.assertEnabled();
    const tokenHash = linkTokenHash(token);
    const row = await this.usable(tokenHash);
    const user = await this.users.findActiveById(row.userId);
    if (!user) {
      throw new LinkGoneProblem('reset_link_used', 'This link cannot be used any more.');
    }
    if (!this.loginPolicy.allowsPassword(user)) this.loginPolicy.refusePasswordChange(user);
    user.passwordHash = await this.passwords.hash(password);
    user.updatedAt = new Date();
    const now = new Date();
    const sessionsEnded = await this.db.transaction(async (tx) => {
      if (!(await this.links.useReset(tokenHash, user.id, now, tx))) {
        throw this.gone(await this.links.findReset(tokenHash, tx), now);
      }
      await this.users.save(user, tx);
      return this.sessions.endAllOf(user.id, undefined, tx);
    });
    this.cache.invalidateUser(user.id);
    // The person proved they hold the address: a lock from failed sign-ins goes too.
    await this.throttle.clearAccount(user.usernameKey);
    audit('auth.password_reset.used', {
      actorId: user.id,
      target: `user:${user.id}`,
      username: user.username,
      sessionsEnded,
    });
    return { username: user.username, sessionsEnded };
  }

  private async usable(tokenHash: string): Promise<PasswordResetRecord> {
    const row = await this.links.findReset(tokenHash);
    const now = new Date();
    if (!row) {
      throw new NotFoundProblem(
        'reset_link',
        'This password reset link is unknown. Check that the whole link was copied, or ask for a new one.',
      );
    }
    if (row.usedAt || row.expiresAt.getTime() <= now.getTime()) throw this.gone(row, now);
    return row;
  }

  private gone(row: PasswordResetRecord | null, now: Date): LinkGoneProblem {
    if (row && !row.usedAt && row.expiresAt.getTime() <= now.getTime()) {
      return new LinkGoneProblem(
        'reset_link_expired',
        'This password reset link has expired (links work for 30 minutes). Ask for a new one.',
      );
    }
    return new LinkGoneProblem(
      'reset_link_used',
      'This password reset link was used already. Ask for a new one if you still need it.',
    );
  }
}
