import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningKb, startKb } from '../support/kb-process';
import { createTestDatabase, TestDatabase } from '../support/mysql-databases';
import { DB_TYPE } from '../support/test-app';

const PASSWORD = 'workers-password';
const WRITES = 200;

interface Answer {
  status: number;
  worker: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request on a connection of its own (no keep-alive), so that the cluster's round robin
 * hands consecutive requests to different workers.
 */
function call(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: unknown,
  timeoutMs = 0,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        agent: false,
        headers: {
          connection: 'close',
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            worker: res.headers['x-kb-worker'] as string | undefined,
            headers: res.headers,
            body: text,
          }),
        );
      },
    );
    req.on('error', reject);
    if (timeoutMs > 0)
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.end(payload);
  });
}

/** Polls `check` until it holds (up to two minutes: a worker starts slowly on a loaded machine). */
async function waitFor(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * KB_WORKERS=2: a real kb process forks two HTTP workers on one port. Credentials made through
 * one work on the other, SQLite writes from both never surface SQLITE_BUSY, /metrics sums the
 * workers, and SIGTERM drains them all.
 */
describe('KB_WORKERS: several HTTP worker processes', () => {
  jest.setTimeout(300_000);
  let dataDir: string;
  let database: TestDatabase | undefined;
  let kb: RunningKb;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kb-workers-'));
    if (DB_TYPE === 'mysql') database = await createTestDatabase();
    kb = await startKb({
      KB_WORKERS: '2',
      KB_DATA_DIR: dataDir,
      PASSWORD_HASH_COST: 'fast',
      KB_ADMIN_PASSWORD: PASSWORD,
      REVIEW_CHECK_INTERVAL_SECONDS: '0',
      ...(database ? { DB_TYPE: 'mysql', DATABASE_URL: database.url } : {}),
    });
  });
  afterAll(async () => {
    await kb?.signal('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** An admin session cookie. */
  async function signIn(): Promise<string> {
    const login = await call(
      `${kb.url}/auth/login`,
      'POST',
      {},
      { username: 'admin', password: PASSWORD },
    );
    expect(login.status).toBe(200);
    return (login.headers['set-cookie'] as string[])[0].split(';')[0];
  }

  it('announces the workers once they all listen', () => {
    expect(kb.readyLine).toMatchObject({ workers: 2 });
    expect(kb.output().match(/kb is ready/g)).toHaveLength(1);
  });

  it('a session cookie and a bearer token made through one worker work on the other', async () => {
    const login = await call(
      `${kb.url}/auth/login`,
      'POST',
      {},
      {
        username: 'admin',
        password: PASSWORD,
      },
    );
    expect(login.status).toBe(200);
    const cookie = (login.headers['set-cookie'] as string[])[0].split(';')[0];
    const created = await call(
      `${kb.url}/api/tokens`,
      'POST',
      { cookie, 'sec-fetch-site': 'same-origin' },
      { name: 'workers' },
    );
    expect(created.status).toBe(201);
    const token = (JSON.parse(created.body) as { token: string }).token;
    const madeOn = new Set([login.worker, created.worker]);
    expect(madeOn.has(undefined)).toBe(false);

    // Two requests in a row with each credential: the round robin sends them to both workers.
    const seen = { cookie: new Set<string>(), bearer: new Set<string>() };
    for (let i = 0; i < 40 && (seen.cookie.size < 2 || seen.bearer.size < 2); i++) {
      const kind = Math.floor(i / 2) % 2 === 0 ? 'cookie' : 'bearer';
      const headers: Record<string, string> =
        kind === 'cookie' ? { cookie } : { authorization: `Bearer ${token}` };
      const me = await call(`${kb.url}/api/me`, 'GET', headers);
      expect(me.status).toBe(200);
      expect(JSON.parse(me.body)).toMatchObject({ username: 'admin' });
      seen[kind].add(me.worker!);
    }
    expect([...seen.cookie].sort()).toEqual(['1', '2']);
    expect([...seen.bearer].sort()).toEqual(['1', '2']);
  });

  it(`${WRITES} concurrent writes across the workers: all stored, no SQLITE_BUSY, no 5xx; /metrics sums the workers`, async () => {
    const login = await call(
      `${kb.url}/auth/login`,
      'POST',
      {},
      {
        username: 'admin',
        password: PASSWORD,
      },
    );
    const cookie = (login.headers['set-cookie'] as string[])[0].split(';')[0];
    const token = (
      JSON.parse(
        (
          await call(
            `${kb.url}/api/tokens`,
            'POST',
            { cookie, 'sec-fetch-site': 'same-origin' },
            { name: 'writes' },
          )
        ).body,
      ) as { token: string }
    ).token;
    const auth = { authorization: `Bearer ${token}` };

    const answers = await Promise.all(
      Array.from({ length: WRITES }, (_, i) =>
        call(`${kb.url}/api/pages`, 'POST', auth, {
          slug: `w-${i}`,
          title: `Written ${i}`,
          content: `# Written ${i}\n\nBy one of the workers.`,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    expect(new Set(answers.map((a) => a.worker))).toEqual(new Set(['1', '2']));
    expect(kb.output()).not.toMatch(/SQLITE_BUSY|database_busy/);

    // Every acknowledged page is there, whichever worker reads it.
    for (let i = 0; i < WRITES; i++) {
      const page = await call(`${kb.url}/api/pages/w-${i}`, 'GET', auth);
      expect([page.status, (JSON.parse(page.body) as { title: string }).title]).toEqual([
        200,
        `Written ${i}`,
      ]);
    }

    // /metrics (loopback) answers the sum of both workers' counters.
    const metrics = await call(`${kb.url}/metrics`, 'GET');
    expect(metrics.status).toBe(200);
    const line = metrics.body
      .split('\n')
      .find(
        (l) =>
          l.startsWith('kb_http_requests_total{') &&
          l.includes('method="POST"') &&
          l.includes('route="/api/pages"') &&
          l.includes('status="201"'),
      );
    expect(line).toBeDefined();
    expect(Number(line!.split(' ').pop())).toBe(WRITES);
  });

  it('/metrics answers while a killed worker is replaced: the ready workers, then all again', async () => {
    const workers = () =>
      execFileSync('pgrep', ['-P', String(kb.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n');
    const reporting = (body: string) =>
      Number(/^kb_cluster_workers_reporting (\d+)$/m.exec(body)?.[1] ?? NaN);
    const before = workers();
    expect(before).toHaveLength(2);
    expect(reporting((await call(`${kb.url}/metrics`, 'GET')).body)).toBe(2);
    // Tokens not used yet: each one's first request makes the primary read its rate counter
    // through a worker, which must be a ready one.
    const cookie = await signIn();
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await call(
        `${kb.url}/api/tokens`,
        'POST',
        { cookie, 'sec-fetch-site': 'same-origin' },
        { name: `replaced-${i}` },
      );
      tokens.push((JSON.parse(created.body) as { token: string }).token);
    }

    process.kill(Number(before[0]), 'SIGKILL');
    // The primary forks a replacement; while it starts, a scrape sums the worker that is ready
    // and requests are answered (none waits for the worker that is still starting).
    await waitFor(() => workers().some((pid) => !before.includes(pid)));
    const [during, ...firstUses] = await Promise.all([
      call(`${kb.url}/metrics`, 'GET'),
      ...tokens.map((token) =>
        call(`${kb.url}/api/me`, 'GET', { authorization: `Bearer ${token}` }, undefined, 30_000),
      ),
    ]);
    expect(during.status).toBe(200);
    expect(reporting(during.body)).toBeGreaterThanOrEqual(1);
    expect(firstUses.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    await waitFor(async () => reporting((await call(`${kb.url}/metrics`, 'GET')).body) === 2);
  });

  it('SIGTERM to the primary drains every worker and exits 0', async () => {
    const code = await kb.signal('SIGTERM');
    // On a failure the log's end says which process ended badly, and why.
    const logEnd = code === 0 ? '' : kb.output().split('\n').slice(-40).join('\n');
    expect({ code, logEnd }).toEqual({ code: 0, logEnd: '' });
    const output = kb.output();
    expect(output).toMatch(/SIGTERM: passing it to the 2 workers/);
    expect(output.match(/shut down: every request finished/g)).toHaveLength(2);
  });
});
