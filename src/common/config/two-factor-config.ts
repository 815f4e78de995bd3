import { Env, OneOf } from './env-schema';

/** Who must have a second factor to sign in with a password (REQUIRE_2FA); docs/auth.md. */
export type RequireTwoFactor = 'off' | 'admins' | 'everyone';

/** Two-factor sign-in (TOTP, passkeys). Passkeys take their RP from KB_PUBLIC_URL (`http`). */
export class TwoFactorConfig {
  /** REQUIRE_2FA: `admins` or `everyone` must set up a factor right after the password. */
  @Env('REQUIRE_2FA') @OneOf(['off', 'admins', 'everyone']) require: RequireTwoFactor = 'off';
}
