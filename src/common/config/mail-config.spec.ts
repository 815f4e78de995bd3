import { loadConfig } from './app-config';
import { ConfigError } from './env-values';

const MAIL_BASE = {
  KB_PUBLIC_URL: 'https://wiki.example.com',
  SMTP_URL: 'smtp://kb:secret@mail.example.com:587',
  MAIL_FROM: 'kb <kb@example.com>',
};

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('mail configuration', () => {
  it('sends no mail unless SMTP_URL is set, with the documented defaults', () => {
    expect(loadConfig({}).mail).toEqual({
      smtpUrl: undefined,
      from: 'kb <kb@localhost>',
      digestIntervalSeconds: 86_400,
      resetLimitPerAddress: { quota: 3, windowSeconds: 3600 },
      resetLimitPerClient: { quota: 20, windowSeconds: 3600 },
    });
  });

  it('reads SMTP, the sender, the digest interval and the reset limits', () => {
    expect(
      loadConfig({
        ...MAIL_BASE,
        SMTP_URL: 'smtps://kb:secret@mail.example.com',
        MAIL_DIGEST_INTERVAL_SECONDS: '0',
        PASSWORD_RESET_LIMIT_ADDRESS: '5/600s',
        PASSWORD_RESET_LIMIT_CLIENT: '0',
      }).mail,
    ).toEqual({
      smtpUrl: 'smtps://kb:secret@mail.example.com',
      from: 'kb <kb@example.com>',
      digestIntervalSeconds: 0,
      resetLimitPerAddress: { quota: 5, windowSeconds: 600 },
      resetLimitPerClient: null,
    });
  });

  it.each([
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    [{ SMTP_URL: 'not a url' }, 'SMTP_URL'],
    [{ KB_PUBLIC_URL: '' }, 'KB_PUBLIC_URL'],
    [{ MAIL_FROM: '' }, 'MAIL_FROM'],
    [{ MAIL_FROM: 'kb <not an address>' }, 'MAIL_FROM'],
    [{ MAIL_DIGEST_INTERVAL_SECONDS: 'daily' }, 'MAIL_DIGEST_INTERVAL_SECONDS'],
    [{ PASSWORD_RESET_LIMIT_ADDRESS: 'lots' }, 'PASSWORD_RESET_LIMIT_ADDRESS'],
    [{ PASSWORD_RESET_LIMIT_CLIENT: '5 per hour' }, 'PASSWORD_RESET_LIMIT_CLIENT'],
  ])('refuses %j naming %s', (change, variable) => {
    expect(failure({ ...MAIL_BASE, ...change }).variable).toBe(variable);
  });
});
