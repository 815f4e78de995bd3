import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEntry } from '../support/kb-process';

// These start Node processes and don't depend on the database: run them once, in the SQLite run.
const describeOnce = (process.env.DB_TYPE ?? 'sqlite') === 'sqlite' ? describe : describe.skip;

describeOnce('startup configuration check', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kb-startup-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ OIDC_PROVIDERS: 'corp' }, 'KB_PUBLIC_URL'],
    [
      {
        OIDC_PROVIDERS: 'corp',
        KB_PUBLIC_URL: 'https://wiki.example.com',
        OIDC_CORP_ISSUER: 'https://login.example.com',
        OIDC_CORP_CLIENT_ID: 'kb',
        OIDC_CORP_ROLE_MAP: 'admins=owner',
      },
      'OIDC_CORP_ROLE_MAP',
    ],
  ])('exits non-zero on %j, naming %s', async (env, variable) => {
    const result = await runEntry('main', { KB_DATA_DIR: dataDir, ...env });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain(`Invalid configuration: ${variable} `);
    expect(result.stdout).toBe('');
  });
});
