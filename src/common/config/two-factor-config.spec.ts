import { ConfigError } from './env-values';
import { requireTwoFactor } from './two-factor-config';

describe('REQUIRE_2FA', () => {
  it('is off by default and reads admins and everyone', () => {
    expect(requireTwoFactor({})).toBe('off');
    expect(requireTwoFactor({ REQUIRE_2FA: 'admins' })).toBe('admins');
    expect(requireTwoFactor({ REQUIRE_2FA: 'everyone' })).toBe('everyone');
  });

  it('refuses any other value, naming the variable', () => {
    expect(() => requireTwoFactor({ REQUIRE_2FA: 'yes' })).toThrow(ConfigError);
    expect(() => requireTwoFactor({ REQUIRE_2FA: 'yes' })).toThrow(
      /REQUIRE_2FA must be one of off, admins, everyone, got "yes"/,
    );
  });
});
