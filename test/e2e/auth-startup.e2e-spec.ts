import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** Runs src/main.ts with an in-process SWC require hook (no build needed). */
function runMain(env: Record<string, string>) {
  const register = `
    const fs = require('fs');
    const swc = require('@swc/core');
    const options = JSON.parse(fs.readFileSync(${JSON.stringify(join(root, '.swcrc'))}, 'utf8'));
    delete options.$schema;
    require.extensions['.ts'] = (module, filename) => {
      const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename, sourceMaps: false });
      module._compile(code, filename);
    };
    require(${JSON.stringify(join(root, 'src', 'main.ts'))});`;
  return spawnSync(process.execPath, ['-e', register], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('startup configuration check', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kb-startup-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
  ])('exits non-zero on %j, naming %s', (env, variable) => {
    const run = runMain({ KB_DATA_DIR: dataDir, ...env });
    expect(run.status).toBe(78);
    expect(run.stderr).toContain(`Invalid configuration: ${variable} `);
    expect(run.stdout).toBe('');
  });
});
