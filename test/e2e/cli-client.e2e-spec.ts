import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TestSuites } from 'junit2json';
import { spawnSync } from 'node:child_process';
import { RunningKb, runEntry, withTypeScript } from '../support/kb-process';
import { KbWithToken, startKbWithToken, writeFolder } from '../support/kb-with-token';

// Each command is a fresh node process compiling TypeScript: slow on a loaded machine.
jest.setTimeout(300_000);

/**
 * `kb push / pull / links` (src/client) as a separate process against a running kb: a real
 * folder, the token from KB_TOKEN, exit codes and what it prints.
 */
describe('the kb CLI against a running kb', () => {
  let kb: RunningKb;
  let started: KbWithToken | undefined;
  let work: string;
  let token: string;

  const api = async (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${kb.url}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    });
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runEntry('cli', { KB_URL: kb.url, KB_TOKEN: token, ...env }, args);

  beforeAll(async () => {
    started = await startKbWithToken('cli-client');
    ({ kb, token, work } = started);
  }, 120_000);
  afterAll(() => started?.stop());

  it('pushes a folder (minus .kbignore), follows the job and prints a summary', async () => {
    const docs = writeFolder(join(work, 'docs'), {
      'index.md': '# Docs\n\nRead [setup](guides/setup.md).\n',
      'guides/setup.md': '# Setup\n\nRun it.\n',
      'drafts/wip.md': '# Work in progress\n',
      'notes.tmp.md': '# Scratch\n',
      '.kbignore': '# not for the wiki\ndrafts/\n*.tmp.md\n',
    });
    const dry = await cli(['push', docs, '--format', 'markdown', '--prefix', 'docs', '--dry-run']);
    expect(dry.stderr).not.toMatch(/Error|at .*\.ts/);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain('dry run (nothing written): 2 created, 0 replaced, 0 unchanged');
    expect((await api('/api/pages/docs/index')).status).toBe(404);

    const pushed = await cli(['push', docs, '--format', 'markdown', '--prefix', 'docs']);
    expect(pushed.status).toBe(0);
    expect(pushed.stdout).toContain('2 created, 0 replaced, 0 unchanged');
    expect(pushed.stdout).toContain('created   docs/index');
    expect(pushed.stdout).toContain('created   docs/guides/setup');
    expect(pushed.stderr).toMatch(/upload: [\d.]+ MB sent, 2\/2 files/);
    expect(pushed.stderr).toMatch(/pushing 2 files/);
    expect((await api('/api/pages/docs/index')).status).toBe(200);
    expect((await api('/api/pages/docs/drafts/wip')).status).toBe(404);
    expect((await api('/api/pages/docs/notes.tmp')).status).toBe(404);

    const junitFile = join(work, 'docs-import.xml');
    const again = await cli([
      'push',
      docs,
      '--format',
      'markdown',
      '--prefix',
      'docs',
      '--junit',
      junitFile,
    ]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('0 created, 0 replaced, 2 unchanged');
    expect(again.stderr).toContain(`JUnit report written to ${junitFile}`);
    const report = (await parse(readFileSync(junitFile, 'utf8'))) as TestSuites;
    const suite = report.testsuite![0];
    expect(suite).toMatchObject({ tests: 2, failures: 0, errors: 0 });
    expect(suite.testcase!.map((c) => c.name).sort()).toEqual(['guides/setup.md', 'index.md']);
  });

  it('mirrors a folder: pages gone from it go to the bin, a dry run shows them first', async () => {
    const site = writeFolder(join(work, 'site'), {
      'a.md': '# A\n\nKept.\n',
      'b.md': '# B\n\nRemoved later.\n',
    });
    expect((await cli(['push', site, '--format', 'markdown', '--prefix', 'site'])).status).toBe(0);
    // A page outside the prefix that merely starts like it.
    const outside = writeFolder(join(work, 'site-old'), { 'x.md': '# X\n' });
    expect(
      (await cli(['push', outside, '--format', 'markdown', '--prefix', 'site-old'])).status,
    ).toBe(0);
    rmSync(join(site, 'b.md'));

    const dry = await cli([
      'push',
      site,
      '--format',
      'markdown',
      '--prefix',
      'site',
      '--mirror',
      '--dry-run',
    ]);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(
      'dry run (nothing written): 0 created, 0 replaced, 1 unchanged, 1 binned',
    );
    expect(dry.stdout).toContain('binned    site/b');
    expect((await api('/api/pages/site/b')).status).toBe(200);

    const mirrored = await cli([
      'push',
      site,
      '--format',
      'markdown',
      '--prefix',
      'site',
      '--mirror',
    ]);
    expect(mirrored.status).toBe(0);
    expect(mirrored.stdout).toContain('1 binned');
    expect((await api('/api/pages/site/b')).status).toBe(404);
    expect((await api('/api/pages/site/a')).status).toBe(200);
    expect((await api('/api/pages/site-old/x')).status).toBe(200);
    const bin = (await (await api('/api/bin')).json()) as { items: { slug: string }[] };
    expect(bin.items.map((i) => i.slug)).toContain('site/b');
  });

  it('fails on broken links with --fail-on-broken-links, and kb links lists them', async () => {
    const broken = writeFolder(join(work, 'broken'), {
      'index.md': '# Broken\n\nSee [nothing](missing.md).\n\n![gone](pics/gone.png)\n',
    });
    const pushed = await cli([
      'push',
      broken,
      '--format',
      'markdown',
      '--prefix',
      'broken',
      '--fail-on-broken-links',
    ]);
    expect(pushed.status).toBe(2);
    expect(pushed.stdout).toContain('1 created');
    // Lines count in the page's Markdown: the file without its `# Title` line and blank line.
    expect(pushed.stdout).toContain('broken/index:1: broken link missing.md');
    expect(pushed.stdout).toContain('broken/index:3: broken image pics/gone.png');
    expect(pushed.stderr).toContain('2 broken links');

    const links = await cli(['links', 'broken']);
    expect(links.status).toBe(2);
    expect(links.stdout.trim().split('\n')).toHaveLength(2);
    const clean = await cli(['links', 'docs']);
    expect(clean.status).toBe(0);
    expect(clean.stdout).toContain('no broken links');
  });

  it('pulls the pages under a prefix into a folder', async () => {
    const out = join(work, 'pulled');
    const pulled = await cli(['pull', 'docs', out]);
    expect(pulled.status).toBe(0);
    expect(pulled.stdout).toContain('pulled 2 pages');
    expect(readFileSync(join(out, 'docs', 'index.md'), 'utf8')).toContain('# Docs');
    expect(readFileSync(join(out, 'docs', 'guides', 'setup.md'), 'utf8')).toContain('Run it.');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(JSON.stringify(manifest)).toContain('docs/guides/setup');
  });

  it('exits non-zero with the problem in words', async () => {
    const bad = writeFolder(join(work, 'bad'), { 'no-title.md': 'No heading here.\n' });
    const junitFile = join(work, 'reports', 'failed.xml');
    const failed = await cli([
      'push',
      bad,
      '--format',
      'markdown',
      '--prefix',
      'bad',
      '--junit',
      junitFile,
    ]);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/the import failed: Unprocessable Content \(422, /);
    expect(failed.stderr).toMatch(/- files\[no-title\.md\]: /);
    // kb keeps no report for a refused import: the CLI writes the failures as JUnit itself.
    const xml = readFileSync(junitFile, 'utf8');
    const failures = (await parse(xml)) as TestSuites;
    expect(failures).toMatchObject({ tests: 1, failures: 1 });
    const [failedCase] = failures.testsuite![0].testcase!;
    expect(failedCase.name).toBe('no-title.md');
    expect(failedCase.failure![0].message).toEqual(expect.any(String));

    const unknownFormat = await cli(['push', bad, '--format', 'word', '--prefix', 'bad']);
    expect(unknownFormat.status).toBe(1);
    expect(unknownFormat.stderr).toMatch(/Unprocessable Content \(422, validation_failed\)/);
    expect(unknownFormat.stderr).toMatch(/- format: /);

    const badToken = await cli(['links'], { KB_TOKEN: 'kb_not-a-token' });
    expect(badToken.status).toBe(1);
    expect(badToken.stderr).toMatch(/Unauthorized \(401/);

    const unreachable = await cli(['links'], { KB_URL: 'http://127.0.0.1:9' });
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(/cannot reach kb at http:\/\/127\.0\.0\.1:9/);
  });

  it('refuses a token on the command line and usage errors with 64', async () => {
    const inArgv = await cli(['links', '--token', token], { KB_TOKEN: '' });
    expect(inArgv.status).toBe(64);
    expect(inArgv.stderr).toContain('--token is not accepted');
    expect(inArgv.stderr).not.toContain(token);
    const noToken = await cli(['links'], { KB_TOKEN: '' });
    expect(noToken.status).toBe(64);
    expect(noToken.stderr).toContain('KB_TOKEN');
    const mirrorWithoutPrefix = await cli(['push', work, '--format', 'markdown', '--mirror']);
    expect(mirrorWithoutPrefix.status).toBe(64);
    const notAFolder = await cli(['push', join(work, 'nope'), '--format', 'markdown']);
    expect(notAFolder.status).toBe(64);
    expect(notAFolder.stderr).toContain('is not a folder');
  });

  it('runs the shell script of docs/ci.md: exit 2 on broken links, 0 once they are fixed', async () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'ci.md'), 'utf8');
    const script = /```sh\n(#!\/bin\/sh\n# publish-docs\.sh[\s\S]*?)```/.exec(doc)?.[1];
    expect(script).toBeDefined();
    // Only how kb is started changes: from the sources (SWC), not a built dist/.
    const launcher = join(work, 'kb-dev.js');
    writeFileSync(
      launcher,
      // The launcher lives outside the clone: it resolves @swc/core from the clone's node_modules.
      `module.paths.unshift(${JSON.stringify(join(__dirname, '..', '..', 'node_modules'))});` +
        withTypeScript(`require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'cli.ts'))});`),
    );
    const startLine = 'kb() { node "$KB_HOME/scripts/kb.js" "$@"; }';
    expect(script).toContain(startLine);
    const repo = join(work, 'repo');
    writeFolder(join(repo, 'docs'), {
      'index.md': '# Handbook\n\nSee [the guide](guide.md).\n',
      'guide.md': '# Guide\n\nAnd [a page that is not there](missing.md).\n',
      'drafts/wip.md': '# WIP\n',
      '.kbignore': 'drafts/\n',
    });
    writeFileSync(
      join(repo, 'publish-docs.sh'),
      script!.replace(startLine, `kb() { node ${JSON.stringify(launcher)} "$@"; }`),
    );
    const run = () =>
      spawnSync('sh', ['publish-docs.sh'], {
        cwd: repo,
        env: {
          PATH: process.env.PATH,
          KB_URL: kb.url,
          KB_TOKEN: token,
          KB_HOME: join(__dirname, '..', '..'),
        },
        encoding: 'utf8',
        timeout: 240_000,
      });
    const broken = run();
    expect(broken.stderr).toContain('docs published, but with broken links');
    expect(broken.stdout).toContain('docs/guide:1: broken link missing.md');
    expect(broken.status).toBe(2);
    const junit = (await parse(readFileSync(join(repo, 'kb-import.xml'), 'utf8'))) as TestSuites;
    // (The first spec's docs/guides/setup is not in this folder: the mirror bins it, a case too.)
    expect(junit.testsuite![0].testcase!.map((c) => c.name)).toEqual(
      expect.arrayContaining(['guide.md', 'index.md']),
    );

    writeFileSync(join(repo, 'docs', 'guide.md'), '# Guide\n\nBack to [the handbook](index.md).\n');
    const fixed = run();
    expect(fixed.stdout).toContain('no broken links');
    expect(fixed.stdout).toContain('docs published');
    expect(fixed.status).toBe(0);
    expect((await api('/api/pages/docs/drafts/wip')).status).toBe(404);
  });
});
