import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import { audit } from '../common/logging/audit';
import { canonicalUsername } from '../common/text/username';
import { ForbiddenProblem, UnauthorizedProblem } from '../common/problems/problem';
import { MeResponse } from './auth.mapper';
import { CredentialsService } from './credentials.service';
import { LoginDto } from './dto/user.dto';
import { LdapLogin } from './ldap/ldap-login.service';
import { LoginPolicy } from './login-policy';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordService } from './password.service';
import { SessionsService } from './sessions.service';
import { PendingSignIn, SignInStepsService } from './two-factor/sign-in-steps.service';
import { UsersService } from './users.service';

export interface LoginContext {
  ip: string;
  userAgent?: string;
  sameOrigin: boolean;
}

/** A sign-in: the session cookie's secret and lifetime, and the user as `GET /api/me` answers. */
export interface LoginResult {
  secret: string;
  maxAgeMs: number;
  me: MeResponse;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly passwords: PasswordService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly credentials: CredentialsService,
    private readonly policy: LoginPolicy,
    private readonly ldap: LdapLogin,
    private readonly steps: SignInStepsService,
  ) {}

  async login(input: LoginDto, context: LoginContext): Promise<LoginResult | PendingSignIn> {
    // A cross-site form must not be able to sign a victim into an attacker's account.
    if (!context.sameOrigin)
      throw new ForbiddenProblem('cross_origin_refused', 'Sign-in must come from this site.');
    // One form for the throttle and the lookup: every spelling of a name is the same account.
    const username = canonicalUsername(input.username);
    // Counted before the password is checked, so concurrent guesses cannot pass the limit.
    // LDAP failures count too: the attempt is counted whichever way it is checked.
    await this.throttle.registerAttempt(username, context.ip);
    // A local password first (the break-glass administrator signs in with the directory down),
    // then the directory: docs/sso.md "Which way is tried first".
    const user = await this.users.findActiveByUsername(username);
    const valid = user
      ? await this.passwords.verify(user.passwordHash, input.password)
      : await this.passwords.verifyAgainstNothing(input.password);
    const local = user && valid && this.policy.allowsPassword(user) ? user : null;
    // The canonical name, as the throttle counts it: no spelling of a name is another account.
    const ldap = local ? null : await this.ldap.signIn(username, input.password);
    const signedIn = local ?? (ldap && 'user' in ldap ? ldap.user : null);
    if (!signedIn) {
      if (user && valid) this.policy.refuse(user, context.ip);
      audit('auth.login.failed', {
        actorId: null,
        target: `username:${username}`,
        reason: user ? 'wrong_password' : 'unknown_or_disabled_user',
        ...(ldap && 'refused' in ldap ? { ldap: ldap.refused } : {}),
        ip: context.ip,
      });
      throw new UnauthorizedProblem(
        'invalid_credentials',
        'The username or password is wrong, or the account is disabled.',
      );
    }
    const method = local ? 'password' : 'ldap';
    // A second factor due (or REQUIRE_2FA's enrolment): no session yet, a pending step instead.
    return (
      (await this.steps.afterPassword(signedIn, method)) ??
      this.steps.signIn(signedIn, context, method)
    );
  }

  async logout(user: AuthUser): Promise<void> {
    if (!user.sessionId) return;
    await this.sessions.end(user.sessionId);
    this.credentials.forgetSession(user.sessionId);
    audit('auth.logout', { actorId: user.id, target: `user:${user.id}` });
  }
}
