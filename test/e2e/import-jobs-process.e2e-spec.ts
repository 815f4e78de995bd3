import Sqlite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, RowDataPacket } from 'mysql2/promise';
import { followEvents, StreamEvent } from '../support/event-stream';
import { png } from '../support/images';
import { RunningKb, startKb } from '../support/kb-process';
import { createTestDatabase, TestDatabase } from '../support/mysql-databases';
import { DB_TYPE } from '../support/test-app';
import { zip } from './import-helpers';
import { expectOrderedProgress } from './import-jobs-helpers';

const PASSWORD = 'jobs-process-password';
/** The tables an import writes to: none of them may hold anything of an interrupted job. */
const TABLES = ['pages', 'page_revisions', 'page_links', 'page_tags', 'media', 'page_media_refs'];
type Job = Record<string, unknown> & { state: string; progress: { phase: string; done: number } };

/** A ZIP of `n` linked, tagged Markdown pages, every 100th with an image of its own. */
function bigArchive(n: number): Buffer {
  const files: Record<string, Uint8Array | string> = {};
  for (let i = 0; i < n; i++) {
    const image = i % 100 === 0 ? `\n\n![figure](img/figure-${i}.png)\n` : '';
    files[`docs/page-${i}.md`] =
      `---\ntags: [bulk]\n---\n# Page ${i}\n\nText of page ${i}, [next](page-${i + 1}.md).${image}\n`;
    if (image) files[`docs/img/figure-${i}.png`] = png(8, 8, (x, y) => [i % 256, x * 16, y * 16]);
  }
  return zip(files);
}

/**
 * Import jobs across real kb processes: a job whose process was killed (SIGKILL: no shutdown
 * hook runs) ends `failed` with `import_interrupted` once kb runs again, with nothing of it
 * written; and on MariaDB a second instance answers a job's status and events while the first
 * runs it.
 */
describe('import jobs across kb processes', () => {
  jest.setTimeout(300_000);
  let dataDir: string;
  let database: TestDatabase | undefined;
  const running: RunningKb[] = [];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kb-jobs-process-'));
    if (DB_TYPE === 'mysql') database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const kb of running.splice(0)) await kb.signal('SIGKILL');
    await database?.drop();
    database = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string> = {}): Promise<RunningKb> {
    const kb = await startKb({
      KB_DATA_DIR: dataDir,
      PASSWORD_HASH_COST: 'fast',
      KB_ADMIN_PASSWORD: PASSWORD,
      IMPORT_JOB_LEASE_SECONDS: '6',
      ...(database ? { DB_TYPE: 'mysql', DATABASE_URL: database.url } : {}),
      ...env,
    });
    running.push(kb);
    return kb;
  }

  /** An API token of the bootstrap administrator (tokens live in the database: any instance). */
  async function adminToken(kb: RunningKb): Promise<string> {
    const login = await fetch(`${kb.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0].split(';')[0];
    const res = await fetch(`${kb.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name: 'jobs' }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { token: string }).token;
  }

  async function startJob(kb: RunningKb, token: string, archive: Buffer): Promise<string> {
    const form = new FormData();
    form.append('format', 'markdown');
    form.append('async', 'true');
    form.append('files', new Blob([archive]), 'docs.zip');
    const res = await fetch(`${kb.url}/api/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(202);
    const job = (await res.json()) as { id: string };
    expect(res.headers.get('location')).toBe(`/api/import/jobs/${job.id}`);
    return job.id;
  }

  async function readJob(kb: RunningKb, token: string, id: string): Promise<Job> {
    const res = await fetch(`${kb.url}/api/import/jobs/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Job;
  }

  /** Polls the job on `kb` until `done(job)`; fails with the job as it last read after 2 min. */
  async function waitForJob(
    kb: RunningKb,
    token: string,
    id: string,
    done: (job: Job) => boolean,
  ): Promise<Job> {
    const started = Date.now();
    for (;;) {
      const job = await readJob(kb, token, id);
      if (done(job)) return job;
      if (Date.now() - started > 120_000)
        throw new Error(`the job did not get there: ${JSON.stringify(job)}\n${kb.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Rows per table, read straight from the database (kb running or not). */
  async function rowCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    if (database) {
      const connection = await createConnection(database.url);
      try {
        for (const table of TABLES) {
          const [rows] = await connection.query<RowDataPacket[]>(
            `SELECT COUNT(*) AS n FROM ${table}`,
          );
          counts[table] = Number(rows[0].n);
        }
      } finally {
        await connection.end();
      }
    } else {
      const db = new Sqlite(join(dataDir, 'kb.sqlite'), { readonly: true, timeout: 60_000 });
      try {
        for (const table of TABLES)
          counts[table] = Number(
            (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).all()[0] as { n: number }).n,
          );
      } finally {
        db.close();
      }
    }
    return counts;
  }

  it('fails a job whose process was killed, once kb runs again, with nothing of it written', async () => {
    const first = await start();
    const token = await adminToken(first);
    const before = await rowCounts();
    const pages = 6000;
    const id = await startJob(first, token, bigArchive(pages));

    // Kill it in the middle of its one transaction: pages (and its media) partly written.
    let writing!: () => void;
    const midWrite = new Promise<void>((resolve) => (writing = resolve));
    const seen: StreamEvent[] = [];
    const stream = followEvents(
      `${first.url}/api/import/jobs/${id}/events`,
      { authorization: `Bearer ${token}` },
      (event: StreamEvent) => {
        seen.push(event);
        if (
          event.event === 'progress' &&
          event.data.phase === 'writing pages' &&
          event.data.done > 0
        )
          writing();
      },
    ).catch(() => undefined);
    await Promise.race([
      midWrite,
      stream.then(() => {
        throw new Error(`the stream ended before the job wrote pages: ${JSON.stringify(seen)}`);
      }),
    ]);
    expect(await first.signal('SIGKILL')).toBe('SIGKILL');
    await stream;

    // The row still says running; a new process fails it (at its start, or by the lease).
    const again = await start();
    const failed = await waitForJob(again, token, id, (job) => job.state !== 'running');
    expect(failed).toMatchObject({ id, state: 'failed', report: null });
    expect(failed.problem).toMatchObject({ status: 500, code: 'import_interrupted' });
    expect(failed.finishedAt).not.toBeNull();
    expect(again.output()).toContain('"msg":"import job interrupted"');

    // Nothing of it was written: not a page, revision, link, tag or media row.
    expect(await rowCounts()).toEqual(before);
    const page = await fetch(`${again.url}/api/pages/docs/page-0`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(page.status).toBe(404);

    // The same archive imports whole afterwards (no half-written slug is in its way).
    const retry = await startJob(again, token, bigArchive(50));
    const done = await waitForJob(again, token, retry, (job) =>
      ['succeeded', 'failed', 'cancelled'].includes(job.state),
    );
    expect(done).toMatchObject({ state: 'succeeded' });
    expect((await rowCounts()).pages).toBe(before.pages + 50);
  });

  (DB_TYPE === 'mysql' ? it : it.skip)(
    'answers status and events of a job on another instance of the same database',
    async () => {
      const a = await start();
      const b = await start();
      const token = await adminToken(a);
      const pages = 3000;
      const id = await startJob(a, token, bigArchive(pages));

      // B follows it from the start: its stream opens with the state, then goes forward.
      const streamOnB = followEvents(`${b.url}/api/import/jobs/${id}/events`, {
        authorization: `Bearer ${token}`,
      });
      const seen = await readJob(b, token, id);
      expect(seen).toMatchObject({ id, format: 'markdown', dryRun: false });
      expect(['queued', 'running', 'succeeded']).toContain(seen.state);

      const { status, contentType, events } = await streamOnB;
      expect(status).toBe(200);
      expect(contentType).toMatch(/^text\/event-stream/);
      expect(events[0].event).toBe('state');
      expect(events[0].data.id).toBe(id);
      const last = events[events.length - 1];
      expect(last.event).toBe('state');
      expect(last.data).toMatchObject({ id, state: 'succeeded', problem: null });
      expect(last.data.report.counts.created).toBe(pages);
      expect(events.filter((e) => e.event === 'state')).toHaveLength(2);
      // What B read of A's progress from the database, in order.
      expect(events.filter((e) => e.event === 'progress').length).toBeGreaterThan(0);
      expectOrderedProgress(events);

      // B's status answer is the finished job A wrote, the same as A's own.
      const onB = await readJob(b, token, id);
      expect(onB).toEqual(last.data);
      expect(await readJob(a, token, id)).toEqual(onB);
      const page = await fetch(`${b.url}/api/pages/docs/page-7`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(page.status).toBe(200);
    },
  );
});
