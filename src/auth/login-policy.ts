import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../common/config/app-config';
import type { LoginPolicyConfig } from '../common/config/ldap-config';
import { audit } from '../common/logging/audit';
import { ForbiddenProblem } from '../common/problems/problem';
import type { UserEntity } from './entities/user.entity';

/** LOCAL_LOGIN and LOCAL_LOGIN_ACCOUNTS: who may sign in with a kb password (docs/sso.md). */
@Injectable()
export class LoginPolicy {
  constructor(@InjectConfig('loginPolicy') private readonly policy: LoginPolicyConfig) {}

  /** Whether `user` may sign in with their local password. */
  allowsPassword(user: UserEntity): boolean {
    return this.policy.localLogin || this.policy.localLoginAccounts.includes(user.usernameKey);
  }

  /**
   * The right local password of an account LOCAL_LOGIN=off keeps out: said in words (the
   * password was right, so this tells the person nothing they did not know).
   */
  refuse(user: UserEntity, ip: string): never {
    audit('auth.login.refused', {
      actorId: null,
      target: `user:${user.id}`,
      username: user.username,
      reason: 'local_login_off',
      ip,
    });
    throw new ForbiddenProblem(
      'local_login_off',
      'Passwords kept by kb are turned off for this account: sign in with your organisation’s single sign-on or directory account.',
    );
  }

  /** A password reset (or change) for an account LOCAL_LOGIN=off keeps from kb passwords. */
  refusePasswordChange(user: UserEntity): never {
    audit('auth.password_reset.refused', {
      actorId: null,
      target: `user:${user.id}`,
      username: user.username,
      reason: 'local_login_off',
    });
    throw new ForbiddenProblem(
      'local_login_off',
      'Passwords kept by kb are turned off for this account, so there is none to set: sign in with your organisation’s single sign-on or directory account.',
    );
  }
}
