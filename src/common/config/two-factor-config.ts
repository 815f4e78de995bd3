import { oneOf, type Env } from './env-values';

/** Who must have a second factor to sign in with a password (REQUIRE_2FA); docs/auth.md. */
export type RequireTwoFactor = 'off' | 'admins' | 'everyone';

export function requireTwoFactor(env: Env): RequireTwoFactor {
  return oneOf(env, 'REQUIRE_2FA', ['off', 'admins', 'everyone'] as const, 'off');
}
