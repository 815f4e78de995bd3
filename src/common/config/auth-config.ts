import { Env, IntRange, OneOf, readGroup, Rule } from './env-schema';
import type { Env as EnvVars } from './env-values';

/** Accounts, sessions, sign-in throttling and tokens. */
export class AuthConfig {
  /** KB_ADMIN_USERNAME: the first administrator, created at start when no user exists (lowercase). */
  @Env('KB_ADMIN_USERNAME')
  @Rule((v: string) =>
    /^[a-z0-9][a-z0-9._-]{1,63}$/i.test(v)
      ? undefined
      : 'must be 2-64 letters, digits, ".", "_" or "-"',
  )
  adminUsername = 'admin';

  /** KB_ADMIN_PASSWORD: unset, a password is generated and logged once. */
  @Env('KB_ADMIN_PASSWORD')
  @Rule((v?: string) =>
    v !== undefined && v.length < 8 ? 'must be at least 8 characters' : undefined,
  )
  adminPassword?: string;

  @Env('SESSION_IDLE_MINUTES', 'int') @IntRange(1, 60 * 24 * 30) sessionIdleMinutes = 120;

  @Env('SESSION_ABSOLUTE_HOURS', 'int') @IntRange(1, 24 * 365) sessionAbsoluteHours = 24 * 7;

  @Env('LOGIN_MAX_FAILURES', 'int') @IntRange(1, 1000) loginMaxFailures = 5;

  @Env('LOGIN_IP_MAX_FAILURES', 'int') @IntRange(1, 100_000) loginIpMaxFailures = 20;

  @Env('LOGIN_WINDOW_SECONDS', 'int') @IntRange(1, 86_400) loginWindowSeconds = 900;

  /** TOKEN_MAX_PER_USER: live (unexpired) personal access tokens one person may hold. */
  @Env('TOKEN_MAX_PER_USER', 'int') @IntRange(1, 10_000) tokenMaxPerUser = 20;

  /** PASSWORD_HASH_COST: Argon2 cost, 'default' for production, 'fast' only for tests. */
  @Env('PASSWORD_HASH_COST') @OneOf(['default', 'fast']) passwordHashCost: 'default' | 'fast' =
    'default';

  /** AUTH_CACHE_SECONDS: how long a resolved credential may be reused from the in-process cache. */
  @Env('AUTH_CACHE_SECONDS', 'int') @IntRange(0, 300) cacheSeconds = 5;
}

export function authConfig(env: EnvVars): AuthConfig {
  const auth = readGroup(AuthConfig, env);
  auth.adminUsername = auth.adminUsername.toLowerCase();
  return auth;
}
