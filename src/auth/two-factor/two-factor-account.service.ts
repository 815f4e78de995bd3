import { Injectable } from '@nestjs/common';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AuthUser } from '../../common/auth/auth-user';
import { audit } from '../../common/logging/audit';
import { fieldProblem, NotFoundProblem } from '../../common/problems/problem';
import { LoginThrottleService } from '../login-throttle.service';
import { PasswordService } from '../password.service';
import { UsersService } from '../users.service';
import { PasskeysService } from './passkeys.service';
import { SignInStepsService } from './sign-in-steps.service';
import { TotpService, TotpSetup } from './totp.service';
import {
  DisableTotpDto,
  PasskeyAnswerDto,
  PasskeyResponse,
  TwoFactorStatusResponse,
} from './two-factor.dto';
import { PasskeyRow, TwoFactorRepository } from './two-factor.repository';

function toPasskeyResponse(row: PasskeyRow): PasskeyResponse {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * A person's own second factors (the Account screen) and an administrator's reset of someone
 * else's. Every change is audited; no line carries a secret, a code or a key.
 */
@Injectable()
export class TwoFactorAccountService {
  constructor(
    private readonly rows: TwoFactorRepository,
    private readonly totp: TotpService,
    private readonly passkeys: PasskeysService,
    private readonly steps: SignInStepsService,
    private readonly users: UsersService,
    private readonly passwords: PasswordService,
    private readonly throttle: LoginThrottleService,
  ) {}

  async status(me: AuthUser): Promise<TwoFactorStatusResponse> {
    const user = await this.users.load(me.id);
    return {
      totp: await this.totp.isEnabled(me.id),
      recoveryCodesLeft: await this.totp.recoveryCodesLeft(me.id),
      passkeys: (await this.passkeys.list(me.id)).map(toPasskeyResponse),
      required: this.steps.requiredFor(user.role),
    };
  }

  startTotp(me: AuthUser): Promise<TotpSetup> {
    return this.totp.start(me);
  }

  async enableTotp(me: AuthUser, code: string, ip: string): Promise<string[]> {
    const codes = await this.totp.enable(me.id, code);
    audit('two_factor.enabled', { actorId: me.id, target: `user:${me.id}`, factor: 'totp', ip });
    return codes;
  }

  /** Needs the current password or a code (both checked like a sign-in: throttled). */
  async disableTotp(me: AuthUser, input: DisableTotpDto, ip: string): Promise<void> {
    const user = await this.users.load(me.id);
    if (input.password === undefined && input.code === undefined) {
      throw fieldProblem(
        'password',
        'required',
        'Send your current password or a code to turn two-factor sign-in off.',
      );
    }
    await this.throttle.registerAttempt(user.usernameKey, ip);
    const proven =
      input.password !== undefined
        ? await this.passwords.verify(user.passwordHash, input.password)
        : (await this.totp.check(user.id, input.code!)) !== null;
    if (!proven) {
      audit('auth.login.failed', {
        actorId: me.id,
        target: `user:${me.id}`,
        reason: 'wrong_proof_to_disable_two_factor',
        ip,
      });
      const field = input.password !== undefined ? 'password' : 'code';
      throw fieldProblem(field, `wrong_${field}`, `The ${field} is wrong.`);
    }
    await this.throttle.recordSuccess(user.usernameKey, ip);
    if (await this.totp.disable(me.id)) {
      audit('two_factor.disabled', { actorId: me.id, target: `user:${me.id}`, factor: 'totp', ip });
    }
  }

  passkeyOptions(me: AuthUser) {
    return this.passkeys.registrationOptions(me);
  }

  async addPasskey(me: AuthUser, input: PasskeyAnswerDto, ip: string): Promise<PasskeyResponse> {
    const row = await this.passkeys.register(
      me.id,
      input.response as unknown as RegistrationResponseJSON,
      input.name?.trim() || 'Passkey',
    );
    audit('passkey.added', { actorId: me.id, target: `user:${me.id}`, passkey: row.name, ip });
    return toPasskeyResponse(row);
  }

  async removePasskey(me: AuthUser, id: string, ip: string): Promise<void> {
    if (!(await this.passkeys.remove(me.id, id))) throw new NotFoundProblem('passkey');
    audit('passkey.removed', { actorId: me.id, target: `user:${me.id}`, ip });
  }

  /** An administrator takes every factor away (a lost phone): TOTP, recovery codes, passkeys. */
  async reset(userId: string, admin: AuthUser): Promise<void> {
    await this.users.load(userId);
    const totp = await this.totp.disable(userId);
    const passkeys = await this.rows.deletePasskeysOf(userId);
    await this.rows.deleteChallengesOf(userId);
    audit('two_factor.reset', { actorId: admin.id, target: `user:${userId}`, totp, passkeys });
  }
}
