import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningKb, startKb } from '../support/kb-process';
import { reserveTestDatabase, TestDatabase, databaseUrl } from '../support/mysql-databases';
import { itWithChromium, RunningPdfService, startPdfService } from '../support/pdf';
import { DB_TYPE, MYSQL_SERVER_URL } from '../support/test-app';

/*
 * The README walks a newcomer through a real session. This runs its shell blocks against a
 * started kb (a real process on a free port, with the dev PDF service), so the README stays
 * true: the session's blocks verbatim, with only the two lines that differ per machine
 * replaced (kb's URL and the administrator's password, which is read from kb's log as the
 * README says). The blocks that install, start servers or run this suite are carried out by
 * the test itself (see SETUP_BLOCKS); a new block must be placed in one of the two kinds.
 */

const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const SESSION_SECTION = 'A first session';

interface Block {
  section: string;
  code: string;
}

/** Every fenced `sh` block with the `##` section it is in. */
function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let section = '';
  let open: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (line.startsWith('```')) {
        blocks.push({ section, code: open.join('\n') });
        open = undefined;
      } else open.push(line);
    } else if (line.startsWith('## ')) section = line.slice(3).trim();
    else if (/^```(sh|bash|shell)\s*$/.test(line)) open = [];
  }
  return blocks;
}

/** The blocks outside the session, and how the test honours each. */
const SETUP_BLOCKS: Record<string, string> = {
  'npm ci && npm start': 'kb is started this way (src/main.ts; the dependencies are installed)',
  'npm ci && npm test': 'this very suite',
  'DB_TYPE=mysql DATABASE_URL=mysql://root@127.0.0.1:3306/kb DB_CREATE=true npm start':
    'the MariaDB run starts kb with these variables, on a database name of its own',
  'PORT=3001 npm run pdf-service &\nPDF_SERVICE_URL=http://127.0.0.1:3001 npm start':
    'the dev PDF service is started on a free port and kb gets its PDF_SERVICE_URL',
};

/** The variables of a `NAME=value ... npm start` line. */
function startVariables(line: string): Record<string, string> {
  return Object.fromEntries(
    [...line.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]] as [string, string]),
  );
}

function runBash(script: string, cwd: string): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-euo', 'pipefail', '-c', script], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: cwd, LANG: 'C.UTF-8' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, out }));
  });
}

describe('the README', () => {
  const blocks = shellBlocks(README);
  const session = blocks.filter((b) => b.section === SESSION_SECTION);

  it('has a session to run and nothing else but the setup the test carries out', () => {
    expect(session.length).toBeGreaterThan(5);
    expect(blocks.filter((b) => b.section !== SESSION_SECTION).map((b) => b.code)).toEqual(
      Object.keys(SETUP_BLOCKS),
    );
    const first = session[0].code.split('\n');
    expect(first[0]).toBe('KB=http://localhost:3000');
    expect(first[1]).toMatch(/^PASSWORD='[^']*'/);
  });

  describe('a first session against a started kb', () => {
    let pdf: RunningPdfService | undefined;
    let kb: RunningKb | undefined;
    let database: TestDatabase | undefined;
    let dataDir: string;
    let workDir: string;
    beforeAll(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'kb-readme-data-'));
      workDir = mkdtempSync(join(tmpdir(), 'kb-readme-work-'));
    });
    afterAll(async () => {
      await kb?.stop();
      await pdf?.stop();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workDir, { recursive: true, force: true });
    });

    async function startAsTheReadmeSays(): Promise<RunningKb> {
      pdf = await startPdfService();
      const env: Record<string, string> = { KB_DATA_DIR: dataDir, PDF_SERVICE_URL: pdf.url };
      if (DB_TYPE === 'mysql') {
        const line = Object.keys(SETUP_BLOCKS).find((b) => b.startsWith('DB_TYPE=mysql'))!;
        const variables = startVariables(line);
        database = await reserveTestDatabase();
        Object.assign(env, variables, {
          DATABASE_URL: databaseUrl(MYSQL_SERVER_URL, database.name),
        });
      }
      return startKb(env);
    }

    itWithChromium(
      'signs in, makes a token, creates, reads, updates, searches, imports and exports',
      async () => {
        kb = await startAsTheReadmeSays();
        // "a generated password printed once in the log (look for `bootstrap administrator`)"
        const bootstrap = kb
          .output()
          .split('\n')
          .find((l) => l.includes('bootstrap administrator'));
        const password = (JSON.parse(bootstrap!) as { password: string }).password;
        const script = session
          .map((b) => b.code)
          .join('\n')
          .replace(/^KB=.*$/m, `KB=${kb.url}`)
          .replace(/^PASSWORD=.*$/m, `PASSWORD='${password}'`);

        const { status, out } = await runBash(script, workDir);
        expect({ status, out }).toEqual({ status: 0, out: expect.any(String) });
        // Signed in as admin, who owns the page they created.
        expect(out).toContain('{"id":"');
        expect(out).toContain('"username":"admin","displayName":"admin","role":"admin"');
        expect(out).toMatch(
          /"slug": "guides\/setup",\s+"title": "Setup",\s+"revision": 1,\s+"owner": "admin"/,
        );
        expect(out).toContain(
          '<p>Install <strong>kb</strong>, then read <a href="/guides/faq" class="kb-missing">the FAQ</a>.</p>',
        );
        expect(out).toContain('\nInstall **kb**, then read [the FAQ](faq).\n');
        // The update with If-Match made revision 2; the same If-Match again was refused.
        expect(out).toMatch(/^2\n412\n/m);
        expect(out).toMatch(/^guides\/setup: .*<mark>[Ii]nstall<\/mark>/m);
        const created = /"created": (\[[^\]]*\])/.exec(out)?.[1];
        expect(JSON.parse(created!).sort()).toEqual(['handbook/howto/install', 'handbook/index']);
        expect(out).toContain('# Installing\n\nRun `npm ci`, then `npm start`.\n');
        expect(out).toMatch(/handbook\/howto\/install\.md/);
        expect(out).toMatch(/manifest\.json/);
        const pdfFile = join(workDir, 'setup.pdf');
        expect(existsSync(pdfFile) && readFileSync(pdfFile).subarray(0, 5).toString()).toBe(
          '%PDF-',
        );
      },
      180_000,
    );
  });
});
