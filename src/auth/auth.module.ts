import {
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsService } from './accounts.service';
import { AuthCache } from './auth-cache';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { CredentialsService } from './credentials.service';
import { GroupsService } from './groups.service';
import { LoginThrottleService } from './login-throttle.service';
import { MeController } from './me.controller';
import { PasswordService } from './password.service';
import { SessionsService } from './sessions.service';
import { AuthGenerationRepository } from './store/auth-generation.repository';
import { GroupsRepository } from './store/groups.repository';
import { LoginThrottleRepository } from './store/login-throttle.repository';
import { SessionsRepository } from './store/sessions.repository';
import { TokensRepository } from './store/tokens.repository';
import { UsersRepository } from './store/users.repository';
import { TokensController } from './tokens.controller';
import { TokensService } from './tokens.service';
import { UserCredentialsController } from './user-credentials.controller';
import { GroupsController } from './groups.controller';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';
import { OidcController } from './oidc/oidc.controller';
import { OidcService } from './oidc/oidc.service';
import { SsoAccountsService } from './oidc/sso-accounts.service';
import { SsoRepository } from './oidc/sso.repository';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { InvitationLinksController, InvitationsController } from './mail/invitations.controller';
import { InvitationsService } from './mail/invitations.service';
import { MailLinksRepository } from './mail/mail-links.repository';
import { PasswordResetController } from './mail/password-reset.controller';
import { PasswordResetService } from './mail/password-reset.service';
import { PasskeysService } from './two-factor/passkeys.service';
import { SignInStepsService } from './two-factor/sign-in-steps.service';
import { TotpService } from './two-factor/totp.service';
import {
  TwoFactorAccountController,
  UserTwoFactorController,
} from './two-factor/two-factor-account.controller';
import { TwoFactorAccountService } from './two-factor/two-factor-account.service';
import { TwoFactorSignInController } from './two-factor/two-factor-sign-in.controller';
import { TwoFactorRepository } from './two-factor/two-factor.repository';
import { SamlController } from './saml/saml.controller';
import { SamlService } from './saml/saml.service';
import { LdapDirectory } from './ldap/ldap-directory';
import { LdapLogin } from './ldap/ldap-login.service';
import { LoginPolicy } from './login-policy';
import { OAuthAppsService } from './oauth/oauth-apps.service';
import { OAuthController } from './oauth/oauth.controller';
import { OAuthRecordsRepository } from './oauth/oauth-records.repository';
import { OAuthServer } from './oauth/oauth-server';
import { WellKnownController } from './oauth/well-known.controller';

/** Purges expired sessions, login-throttle rows, reset links and OAuth records every hour. */
@Injectable()
class AuthHousekeeping implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuthHousekeeping');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly mailLinks: MailLinksRepository,
    private readonly oauth: OAuthRecordsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.purgeExpired().catch((error: unknown) =>
        this.logger.error(`Purging expired sessions failed: ${String(error)}`),
      );
    }, 3_600_000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async purgeExpired(): Promise<void> {
    await this.sessions.purgeExpired();
    await this.throttle.purgeExpired();
    await this.mailLinks.purge(new Date());
    await this.oauth.purgeExpired();
  }
}

@Module({
  imports: [RateLimitModule],
  controllers: [
    AuthController,
    MeController,
    UsersController,
    UserCredentialsController,
    GroupsController,
    TokensController,
    OidcController,
    InvitationsController,
    InvitationLinksController,
    PasswordResetController,
    TwoFactorSignInController,
    TwoFactorAccountController,
    UserTwoFactorController,
    SamlController,
    OAuthController,
    WellKnownController,
  ],
  providers: [
    AccountsService,
    AuthCache,
    AuthService,
    CredentialsService,
    GroupsService,
    LoginThrottleService,
    PasswordService,
    SessionsService,
    TokensService,
    UsersService,
    UsersRepository,
    AuthGenerationRepository,
    GroupsRepository,
    SessionsRepository,
    TokensRepository,
    LoginThrottleRepository,
    AuthHousekeeping,
    OidcService,
    SsoAccountsService,
    SsoRepository,
    InvitationsService,
    MailLinksRepository,
    PasswordResetService,
    TwoFactorRepository,
    TotpService,
    PasskeysService,
    SignInStepsService,
    TwoFactorAccountService,
    SamlService,
    LdapDirectory,
    LdapLogin,
    LoginPolicy,
    OAuthRecordsRepository,
    OAuthServer,
    OAuthAppsService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [
    UsersService,
    GroupsService,
    AccountsService,
    // Collab authenticates its WebSocket upgrade and watches the credentials generation.
    CredentialsService,
    AuthGenerationRepository,
    // app.factory mounts the authorization server's endpoints before the body parsers.
    OAuthServer,
  ],
})
export class AuthModule {}
