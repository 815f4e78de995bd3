import { Injectable } from '@nestjs/common';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Role } from '../../common/auth/roles';
import { InjectConfig } from '../../common/config/app-config';
import type { TwoFactorConfig } from '../../common/config/two-factor-config';
import { audit } from '../../common/logging/audit';
import { UnauthorizedProblem } from '../../common/problems/problem';
import { toAccountResponse } from '../auth.mapper';
import type { LoginContext, LoginResult } from '../auth.service';
import { UserEntity } from '../entities/user.entity';
import { LoginThrottleService } from '../login-throttle.service';
import { newSessionSecret, sha256Hex } from '../secrets';
import { SessionsService } from '../sessions.service';
import { UsersService } from '../users.service';
import { PasskeysService } from './passkeys.service';
import { TotpService, TotpSetup } from './totp.service';
import { TwoFactorRepository } from './two-factor.repository';

/** How long a password stays accepted while the second factor is asked for. */
export const PENDING_TTL_MS = 5 * 60_000;

/** A password accepted, a step still due: the pending cookie's value and what the step is. */
export interface PendingSignIn {
  pending: string;
  maxAgeMs: number;
  /** `second_factor`: a code or passkey; `enrol`: REQUIRE_2FA covers them and they have none. */
  step: 'second_factor' | 'enrol';
  methods: string[];
}

const noPendingSignIn = () =>
  new UnauthorizedProblem(
    'no_pending_sign_in',
    'No sign-in is waiting for this step, or it expired; sign in with your password again.',
  );

/**
 * The steps of a sign-in after the password: a second factor when the person has one, TOTP
 * enrolment first when REQUIRE_2FA covers them and they have none. Between the steps no session
 * exists: only a pending challenge (a row of `auth_challenges` named by the hash of an HttpOnly
 * cookie, five minutes, used once), which no route but these steps accepts.
 */
@Injectable()
export class SignInStepsService {
  constructor(
    private readonly rows: TwoFactorRepository,
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    @InjectConfig('twoFactor') private readonly config: TwoFactorConfig,
  ) {}

  /** Whether REQUIRE_2FA covers a person of this role. */
  requiredFor(role: Role): boolean {
    const mode = this.config.require;
    return mode === 'everyone' || (mode === 'admins' && role === 'admin');
  }

  /**
   * After a correct password: null when the session may be made now, else the pending step.
   * The account's throttle counter is not cleared yet, so codes guessed after a known password
   * keep counting towards the lock.
   */
  async afterPassword(user: UserEntity, method = 'password'): Promise<PendingSignIn | null> {
    const factors = (await this.rows.summaries([user.id])).get(user.id)!;
    const has = factors.totp || factors.passkeys > 0;
    if (!has && !this.requiredFor(user.role)) return null;
    const step = has ? 'second_factor' : 'enrol';
    const pending = newSessionSecret();
    await this.rows.insertChallenge(
      sha256Hex(pending),
      { kind: step, userId: user.id, method },
      new Date(Date.now() + PENDING_TTL_MS),
    );
    const methods = has
      ? [
          ...(factors.totp ? ['totp', 'recovery_code'] : []),
          ...(factors.passkeys ? ['passkey'] : []),
        ]
      : ['totp'];
    return { pending, maxAgeMs: PENDING_TTL_MS, step, methods };
  }

  /** POST /auth/2fa/verify: a TOTP or recovery code, counted by the login throttle. */
  async verifyCode(
    pending: string | undefined,
    code: string,
    context: LoginContext,
  ): Promise<LoginResult> {
    const user = await this.pendingUser(pending, 'second_factor');
    await this.throttle.registerAttempt(user.usernameKey, context.ip);
    const kind = await this.totp.check(user.id, code);
    if (!kind) {
      audit('auth.login.failed', {
        actorId: null,
        target: `user:${user.id}`,
        reason: 'wrong_second_factor',
        ip: context.ip,
      });
      throw new UnauthorizedProblem('invalid_code', 'The code is wrong, already used or too old.');
    }
    if (kind === 'recovery_code') {
      audit('two_factor.recovery_code.used', {
        actorId: user.id,
        target: `user:${user.id}`,
        left: await this.totp.recoveryCodesLeft(user.id),
        ip: context.ip,
      });
    }
    return this.finish(pending!, user, kind, context);
  }

  /** POST /auth/2fa/enrol: REQUIRE_2FA's first step, a TOTP secret for the pending person. */
  async startEnrolment(pending: string | undefined): Promise<TotpSetup> {
    return this.totp.start(await this.pendingUser(pending, 'enrol'));
  }

  /** POST /auth/2fa/enrol/enable: the first code turns TOTP on and signs the person in. */
  async finishEnrolment(
    pending: string | undefined,
    code: string,
    context: LoginContext,
  ): Promise<LoginResult & { recoveryCodes: string[] }> {
    const user = await this.pendingUser(pending, 'enrol');
    await this.throttle.registerAttempt(user.usernameKey, context.ip);
    const recoveryCodes = await this.totp.enable(user.id, code);
    audit('two_factor.enabled', {
      actorId: user.id,
      target: `user:${user.id}`,
      factor: 'totp',
      ip: context.ip,
    });
    return { ...(await this.finish(pending!, user, 'totp', context)), recoveryCodes };
  }

  /** Options for a passkey: the pending person's, or any discoverable one (password-less). */
  async passkeyOptions(pending: string | undefined) {
    const found = pending ? await this.rows.findChallenge(sha256Hex(pending)) : null;
    const userId = found?.kind === 'second_factor' ? found.userId : null;
    return this.passkeys.authenticationOptions(userId);
  }

  /** A passkey's assertion: the second step after a password, or the whole sign-in. */
  async passkeySignIn(
    pending: string | undefined,
    response: AuthenticationResponseJSON,
    context: LoginContext,
  ): Promise<LoginResult> {
    const checked = await this.passkeys.authenticate(response);
    if (checked.challengeUserId !== null) {
      const user = await this.pendingUser(pending, 'second_factor');
      if (user.id !== checked.userId) throw noPendingSignIn();
      return this.finish(pending!, user, 'passkey', context);
    }
    const user = await this.users.findActiveById(checked.userId);
    if (!user) {
      throw new UnauthorizedProblem('passkey_invalid', 'This account is disabled.');
    }
    return this.signIn(user, context, 'passkey');
  }

  /** Makes the session: the throttle forgets the account, the sign-in is recorded and audited. */
  async signIn(user: UserEntity, context: LoginContext, method: string): Promise<LoginResult> {
    await this.throttle.recordSuccess(user.usernameKey, context.ip);
    const { secret, session } = await this.sessions.start(
      user.id,
      context.ip,
      context.userAgent,
      method,
    );
    await this.users.recordSignIn(user.id, session.createdAt);
    audit('auth.login.succeeded', {
      actorId: user.id,
      target: `user:${user.id}`,
      username: user.username,
      method,
      ip: context.ip,
    });
    return { secret, maxAgeMs: this.sessions.absoluteMs, me: toAccountResponse(user) };
  }

  private async pendingUser(
    pending: string | undefined,
    kind: 'second_factor' | 'enrol',
  ): Promise<UserEntity> {
    const found = pending ? await this.rows.findChallenge(sha256Hex(pending)) : null;
    if (!found || found.kind !== kind || !found.userId) throw noPendingSignIn();
    const user = await this.users.findActiveById(found.userId);
    if (!user) throw noPendingSignIn();
    return user;
  }

  /**
   * Uses the pending challenge up (once, on any instance), then makes the session, recorded as
   * the first step's method (`password` or `ldap`) and the second factor: `ldap+totp`.
   */
  private async finish(
    pending: string,
    user: UserEntity,
    secondFactor: string,
    context: LoginContext,
  ): Promise<LoginResult> {
    const taken = await this.rows.consumeChallenge(sha256Hex(pending));
    if (!taken || taken.userId !== user.id) throw noPendingSignIn();
    return this.signIn(user, context, `${taken.method ?? 'password'}+${secondFactor}`);
  }
}
