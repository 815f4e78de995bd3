import { Inject } from '@nestjs/common';
import { AuthConfig, authConfig } from './auth-config';
import { CommentsConfig } from './comments-config';
import { CollabConfig } from './collab-config';
import { DatabaseConfig, databaseConfig, FilesConfig, filesConfig } from './database-config';
import { readGroup } from './env-schema';
import type { Env } from './env-values';
import { HttpConfig, httpConfig } from './http-config';
import { IdempotencyConfig } from './idempotency-config';
import { ImportConfig } from './import-config';
import { LdapGroup, ldapConfig, LoginPolicyConfig, loginPolicy } from './ldap-config';
import { LogConfig } from './log-config';
import { MailConfig, mailConfig } from './mail-config';
import { McpConfig } from './mcp-config';
import { OAuthConfig } from './oauth-config';
import { MediaConfig, mediaConfig } from './media-config';
import { NotificationsConfig } from './notifications-config';
import { OidcProviderConfig, oidcProviders } from './oidc-config';
import { SamlProviderConfig, samlProviders } from './saml-config';
import { PagesConfig, pagesConfig } from './pages-config';
import { PdfConfig } from './pdf-config';
import { RateLimitConfig, rateLimitConfig } from './rate-limit-config';
import { TwoFactorConfig } from './two-factor-config';
import { WebhooksConfig } from './webhooks-config';
import { WorkersConfig } from './workers-config';

export { ConfigError } from './env-values';
export type { DbType } from './database-config';

/**
 * The configuration, read once at start from environment variables: one typed, validated group
 * per concern (docs/configuration.md). A module injects only the groups it reads, with
 * `@InjectConfig('<group>')`; the whole object is for bootstrap code (main.ts, createApp, CLIs).
 */
export interface AppConfig {
  http: HttpConfig;
  log: LogConfig;
  files: FilesConfig;
  database: DatabaseConfig;
  workers: WorkersConfig;
  auth: AuthConfig;
  /** OpenID Connect providers (OIDC_PROVIDERS, OIDC_<ID>_*): docs/sso.md. */
  oidc: { providers: OidcProviderConfig[] };
  /** Second factors: REQUIRE_2FA (docs/auth.md "Two-factor and passkeys"). */
  twoFactor: TwoFactorConfig;
  /** SAML 2.0 identity providers (SAML_PROVIDERS, SAML_<ID>_*): docs/sso.md. */
  saml: { providers: SamlProviderConfig[] };
  /** LDAP / Active Directory (LDAP_*): docs/sso.md; `directory` null without LDAP_URL. */
  ldap: LdapGroup;
  /** LOCAL_LOGIN, LOCAL_LOGIN_ACCOUNTS, SSO_LINK_BY_EMAIL: docs/sso.md. */
  loginPolicy: LoginPolicyConfig;
  pages: PagesConfig;
  media: MediaConfig;
  import: ImportConfig;
  pdf: PdfConfig;
  notifications: NotificationsConfig;
  webhooks: WebhooksConfig;
  rateLimit: RateLimitConfig;
  idempotency: IdempotencyConfig;
  mcp: McpConfig;
  /** kb as an OAuth authorization server (OAUTH_*): docs/oauth.md. */
  oauth: OAuthConfig;
  /** Email: SMTP, sender, digest schedule, reset limits (docs/auth.md). */
  mail: MailConfig;
  /** COMMENTS: who may comment (docs/comments.md). */
  comments: CommentsConfig;
  /** Live co-editing at /collab (COLLAB_*): docs/collab.md. */
  collab: CollabConfig;
}

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const http = httpConfig(env);
  const files = filesConfig(env);
  return {
    http,
    log: readGroup(LogConfig, env),
    files,
    database: databaseConfig(env, files),
    workers: readGroup(WorkersConfig, env),
    auth: authConfig(env),
    oidc: { providers: oidcProviders(env, http.publicUrl) },
    twoFactor: readGroup(TwoFactorConfig, env),
    saml: { providers: samlProviders(env, http.publicUrl) },
    ldap: { directory: ldapConfig(env) },
    loginPolicy: loginPolicy(env),
    pages: pagesConfig(env),
    media: mediaConfig(env),
    import: readGroup(ImportConfig, env),
    pdf: readGroup(PdfConfig, env),
    notifications: readGroup(NotificationsConfig, env),
    webhooks: readGroup(WebhooksConfig, env),
    rateLimit: rateLimitConfig(env),
    idempotency: readGroup(IdempotencyConfig, env),
    mcp: readGroup(McpConfig, env),
    oauth: readGroup(OAuthConfig, env),
    mail: mailConfig(env, http.publicUrl),
    comments: readGroup(CommentsConfig, env),
    collab: readGroup(CollabConfig, env),
  };
}

export type ConfigGroup = keyof AppConfig;

/** The whole configuration: for bootstrap code only; modules inject their groups. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/** The injection token of one group (ConfigModule provides one per member of AppConfig). */
export function configToken(group: ConfigGroup): string {
  return `kb.config.${group}`;
}

/** Injects one configuration group: `@InjectConfig('media') media: AppConfig['media']`. */
export function InjectConfig(group: ConfigGroup): ParameterDecorator {
  return Inject(configToken(group));
}
