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
import { zip } from '../support/import-helpers';
import { expectOrderedProgress } from '../support/import-jobs-helpers';

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
    await untilWriting(first, token, id);
    expect(await first.signal('SIGKILL')).toBe('SIGKILL');

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

  /** Runs `work` on the database directly (kb running or not). */
  async function onDatabase<T>(
    sqlite: (db: InstanceType<typeof Sqlite>) => T,
    mysql: (connection: Awaited<ReturnType<typeof createConnection>>) => Promise<T>,
  ): Promise<T> {
    if (database) {
      const connection = await createConnection(database.url);
      try {
        return await mysql(connection);
      } finally {
        await connection.end();
      }
    }
    const db = new Sqlite(join(dataDir, 'kb.sqlite'), { timeout: 60_000 });
    try {
      return sqlite(db);
    } finally {
      db.close();
    }
  }

  /** Waits until the job's stream says it is writing pages (in the middle of its transaction). */
  async function untilWriting(kb: RunningKb, token: string, id: string): Promise<void> {
    let writing!: () => void;
    const midWrite = new Promise<void>((resolve) => (writing = resolve));
    const seen: StreamEvent[] = [];
    const stream = followEvents(
      `${kb.url}/api/import/jobs/${id}/events`,
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
  }

  it('issue 28 item 5: fails a killed job at once when kb starts again on its host (not after its lease); its event stream ends with that state; a job of another host keeps its lease', async () => {
    // A lease of ten minutes: anything that ends the job sooner is not the lease.
    const first = await start({ IMPORT_JOB_LEASE_SECONDS: '600' });
    const token = await adminToken(first);
    const before = await rowCounts();
    const id = await startJob(first, token, bigArchive(4000));
    await untilWriting(first, token, id);
    expect(await first.signal('SIGKILL')).toBe('SIGKILL');

    // The lease names the killed process: pid and host. A copy of the row whose lease belongs
    // to a process of another host stands for a job running elsewhere.
    const elsewhere = '3b0e53a4-7c55-4f0e-9a5e-000000000028';
    const owner = await onDatabase(
      (db) => {
        const row = db.prepare('SELECT * FROM import_jobs WHERE id = ?').all(id)[0] as Record<
          string,
          unknown
        >;
        const copy = {
          ...row,
          id: elsewhere,
          lease_owner: `0123456789abcdef.${first.pid}@elsewhere`,
        };
        const columns = Object.keys(copy);
        db.prepare(
          `INSERT INTO import_jobs (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
        ).run(copy);
        return row;
      },
      async (connection) => {
        const [rows] = await connection.query<RowDataPacket[]>(
          'SELECT * FROM import_jobs WHERE id = ?',
          [id],
        );
        const copy = {
          ...rows[0],
          id: elsewhere,
          lease_owner: `0123456789abcdef.${first.pid}@elsewhere`,
        };
        await connection.query('INSERT INTO import_jobs SET ?', [copy]);
        return rows[0];
      },
    );
    expect(owner).toMatchObject({
      state: 'running',
      lease_owner: expect.stringMatching(new RegExp(`^[0-9a-f]{16}\\.${first.pid}@.+$`)),
    });

    const again = await start({ IMPORT_JOB_LEASE_SECONDS: '600' });
    // The first answer of the new process already says failed: nothing waited for the lease.
    const failed = await readJob(again, token, id);
    expect(failed).toMatchObject({ id, state: 'failed', report: null });
    expect(failed.problem).toEqual({
      type: 'urn:kb:problem:import_interrupted',
      title: 'Internal Server Error',
      status: 500,
      detail:
        'The kb instance running this import stopped before it finished (its process on this host had stopped running); nothing of it was written. Start the import again.',
      instance: '/api/import',
      code: 'import_interrupted',
      jobId: id,
    });
    expect(failed.finishedAt).not.toBeNull();
    expect(again.output()).toContain('"msg":"import job interrupted"');

    // Its event stream answers the final state and ends.
    let timer: NodeJS.Timeout | undefined;
    const stream = await Promise.race([
      followEvents(`${again.url}/api/import/jobs/${id}/events`, {
        authorization: `Bearer ${token}`,
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the event stream stayed open')), 10_000);
      }),
    ]).finally(() => clearTimeout(timer));
    expect(stream.status).toBe(200);
    expect(stream.events).toEqual([{ event: 'state', data: failed }]);

    // The job of another host keeps running until its lease says otherwise.
    expect(await readJob(again, token, elsewhere)).toMatchObject({ state: 'running' });
    // Nothing of the killed job was written.
    expect(await rowCounts()).toEqual(before);
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
