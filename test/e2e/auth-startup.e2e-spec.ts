import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** Runs src/main.ts (or src/cli.ts) with an in-process SWC require hook (no build needed). */
function run(entry: 'main' | 'cli', env: Record<string, string>, args: string[] = []) {
  const register = `
    const fs = require('fs');
    const swc = require('@swc/core');
    const options = JSON.parse(fs.readFileSync(${JSON.stringify(join(root, '.swcrc'))}, 'utf8'));
    delete options.$schema;
    require.extensions['.ts'] = (module, filename) => {
      const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename, sourceMaps: false });
      module._compile(code, filename);
    };
    require(${JSON.stringify(join(root, 'src'))} + '/' + process.argv[1] + '.ts');`;
  return spawnSync(process.execPath, ['-e', register, entry, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

// These start Node processes and don't depend on the database: run them once, in the SQLite run.
const describeOnce = (process.env.DB_TYPE ?? 'sqlite') === 'sqlite' ? describe : describe.skip;

describeOnce('startup configuration check', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kb-startup-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
  ])('exits non-zero on %j, naming %s', (env, variable) => {
    const result = run('main', { KB_DATA_DIR: dataDir, ...env });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain(`Invalid configuration: ${variable} `);
    expect(result.stdout).toBe('');
  });
});

describeOnce('user CLI', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kb-cli-'));
  const env = { KB_DATA_DIR: dataDir, PASSWORD_HASH_COST: 'fast' };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates groups and users, lists them, and changes a password', () => {
    expect(run('cli', env, ['group:create', '--name', 'Ops']).stdout).toMatch(
      /^created group ops \(/,
    );
    const created = run('cli', env, [
      'user:create',
      '--username',
      'Ada',
      '--password',
      'long-enough-pw',
      '--role',
      'editor',
      '--groups',
      'ops',
    ]);
    expect({ status: created.status, stdout: created.stdout }).toEqual({
      status: 0,
      stdout: expect.stringMatching(/^created editor ada \([0-9a-f-]{36}\)\n$/),
    });
    const refused = run('cli', env, [
      'user:create',
      '--username',
      'bob',
      '--password',
      'short',
      '--role',
      'reader',
    ]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('validation_failed');
    expect(refused.stderr).toContain('"field":"password"');
    const list = run('cli', env, ['user:list']);
    expect(list.stdout).toBe('ada\teditor\tactive\tops\n');
    expect(
      run('cli', env, ['user:set-password', '--username', 'ada', '--password', 'another-long-pw'])
        .status,
    ).toBe(0);
  }, 180_000);
});
