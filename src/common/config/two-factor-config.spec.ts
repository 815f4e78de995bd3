import { ConfigError, loadConfig } from './app-config';

describe('REQUIRE_2FA', () => {
  it('is off by default and reads admins and everyone', () => {
    expect(loadConfig({}).twoFactor.require).toBe('off');
    expect(loadConfig({ REQUIRE_2FA: 'admins' }).twoFactor.require).toBe('admins');
    expect(loadConfig({ REQUIRE_2FA: 'everyone' }).twoFactor.require).toBe('everyone');
  });

  it('refuses any other value, naming the variable', () => {
    expect(() => loadConfig({ REQUIRE_2FA: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ REQUIRE_2FA: 'yes' })).toThrow(/REQUIRE_2FA/);
  });
});
