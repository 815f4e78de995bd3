import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { eventually } from '../support/eventually';
import { RunningKb, startKb } from '../support/kb-process';
import { createTestDatabase, TestDatabase } from '../support/mysql-databases';
import { DB_TYPE } from '../support/test-app';
import { manyPages } from './import-jobs-helpers';

const PASSWORD = 'handback-password';
const PAGES = 2500;

interface Job {
  id: string;
  state: string;
  report: { counts: { created: number } } | null;
  problem: unknown;
}

/**
 * SIGTERM while an import job runs: the job goes back to `queued` with nothing of it written,
 * and is run to success by another instance on the same database and data folder (MariaDB),
 * or by the same instance's next start (SQLite); every page is written exactly once.
 */
describe('import jobs handed back at a graceful shutdown', () => {
  jest.setTimeout(600_000);
  let dataDir: string;
  let database: TestDatabase | undefined;
  const running: RunningKb[] = [];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kb-handback-'));
    if (DB_TYPE === 'mysql') database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(running.map((kb) => kb.signal('SIGKILL')));
    running.length = 0;
    await database?.drop();
    database = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<RunningKb> {
    const kb = await startKb({
      KB_DATA_DIR: dataDir,
      PASSWORD_HASH_COST: 'fast',
      KB_ADMIN_PASSWORD: PASSWORD,
      REVIEW_CHECK_INTERVAL_SECONDS: '0',
      // Sweeps (which resume handed-back jobs) every half lease: every 2 s here.
      IMPORT_JOB_LEASE_SECONDS: '4',
      SHUTDOWN_TIMEOUT_SECONDS: '60',
      ...(database ? { DB_TYPE: 'mysql', DATABASE_URL: database.url } : {}),
    });
    running.push(kb);
    return kb;
  }

  async function adminToken(kb: RunningKb): Promise<string> {
    const login = await fetch(`${kb.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const cookie = login.headers.getSetCookie()[0].split(';')[0];
    const res = await fetch(`${kb.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name: 'handback' }),
    });
    return ((await res.json()) as { token: string }).token;
  }

  async function startImport(kb: RunningKb, token: string): Promise<Job> {
    const form = new FormData();
    form.append('format', 'markdown');
    form.append('async', 'true');
    form.append('files', new Blob([manyPages(PAGES)]), 'docs.zip');
    const res = await fetch(`${kb.url}/api/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(202);
    return (await res.json()) as Job;
  }

  async function job(kb: RunningKb, token: string, id: string): Promise<Job> {
    const res = await fetch(`${kb.url}/api/import/jobs/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Job;
  }

  async function finished(kb: RunningKb, token: string, id: string): Promise<Job> {
    const end = Date.now() + 360_000;
    for (;;) {
      const current = await job(kb, token, id);
      if (!['queued', 'running'].includes(current.state)) return current;
      if (Date.now() > end)
        throw new Error(
          `job ${id} still ${JSON.stringify(current)} after 360 s; logs:\n${running
            .map((p) => p.output().split('\n').slice(-30).join('\n'))
            .join('\n---\n')}`,
        );
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Rows of `pages` and `page_revisions`, and upload folders left. */
  async function written(): Promise<{ pages: number; revisions: number; uploads: string[] }> {
    const uploads = readdirSync(join(dataDir, 'tmp'));
    if (database) {
      const sql = await createConnection(database.url);
      try {
        const [[pages]] = (await sql.query('SELECT COUNT(*) AS n FROM pages')) as unknown as [
          { n: number }[],
        ];
        const [[revisions]] = (await sql.query(
          'SELECT COUNT(*) AS n FROM page_revisions',
        )) as unknown as [{ n: number }[]];
        return { pages: Number(pages.n), revisions: Number(revisions.n), uploads };
      } finally {
        await sql.end();
      }
    }
    const sqlite = new Database(join(dataDir, 'kb.sqlite'), { readonly: true });
    try {
      const count = (table: string) =>
        (sqlite.prepare(`SELECT COUNT(*) AS n FROM ${table}`).all()[0] as { n: number }).n;
      return { pages: count('pages'), revisions: count('page_revisions'), uploads };
    } finally {
      sqlite.close();
    }
  }

  it('goes back to queued on SIGTERM and ends succeeded elsewhere, each page written once', async () => {
    const first = await start();
    // MariaDB: a second instance on the same database and data folder takes the job over.
    const second = DB_TYPE === 'mysql' ? await start() : undefined;
    const token = await adminToken(first);
    const { id } = await startImport(first, token);

    expect(await first.signal('SIGTERM')).toBe(0);
    expect(first.output()).toContain(`"msg":"import job handed back","jobId":"${id}"`);
    if (!second) {
      // Nothing of the stopped run was written; its upload waits for the next start.
      const between = await written();
      expect({ pages: between.pages, revisions: between.revisions }).toEqual({
        pages: 0,
        revisions: 0,
      });
      expect(between.uploads).toHaveLength(1);
    }
    // SQLite: the same data folder's next start resumes it.
    const resumer = second ?? (await start());
    const afterHandBack = await job(resumer, token, id);
    expect(['queued', 'running', 'succeeded']).toContain(afterHandBack.state);

    const done = await finished(resumer, token, id);
    expect(done).toMatchObject({ state: 'succeeded', problem: null });
    expect(done.report!.counts.created).toBe(PAGES);
    expect(resumer.output()).toContain(`"msg":"import job resumed","jobId":"${id}"`);
    // The upload folder goes right after the job's end is recorded (a reader may see the end
    // first): wait for it.
    await eventually(
      async () => expect(await written()).toEqual({ pages: PAGES, revisions: PAGES, uploads: [] }),
      30_000,
    );
  });
});
