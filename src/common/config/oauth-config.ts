import { Env, IntRange, IsBool } from './env-schema';

/** kb as an OAuth 2.1 authorization server for its own API (docs/oauth.md). */
export class OAuthConfig {
  /** OAUTH_ENABLED: third-party apps and MCP clients may ask for access (off: /oauth is 404). */
  @Env('OAUTH_ENABLED', 'bool') @IsBool() enabled = true;

  /** OAUTH_ACCESS_TOKEN_SECONDS: how long an access token lives (default one hour). */
  @Env('OAUTH_ACCESS_TOKEN_SECONDS', 'int') @IntRange(60, 86_400) accessTokenSeconds = 3600;

  /** OAUTH_REFRESH_TOKEN_DAYS: how long a refresh token lives unused (default 30 days). */
  @Env('OAUTH_REFRESH_TOKEN_DAYS', 'int') @IntRange(1, 365) refreshTokenDays = 30;
}
