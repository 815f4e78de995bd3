import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningKb, startKb } from '../support/kb-process';
import { createTestDatabase } from '../support/mysql-databases';
import { DB_TYPE } from '../support/test-app';

const PASSWORD = 'workers-password';

interface Answer {
  status: number;
  worker: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request on a connection of its own, so the round robin spreads them over the workers. */
function call(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method, agent: false, headers: { connection: 'close', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            worker: res.headers['x-kb-worker'] as string | undefined,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const json = <T>(answer: Answer): T => JSON.parse(answer.body.toString('utf8')) as T;

async function startWorkers(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kb-workers-shared-'));
  const database = DB_TYPE === 'mysql' ? await createTestDatabase() : undefined;
  const kb = await startKb({
    KB_WORKERS: '2',
    KB_DATA_DIR: dataDir,
    PASSWORD_HASH_COST: 'fast',
    KB_ADMIN_PASSWORD: PASSWORD,
    REVIEW_CHECK_INTERVAL_SECONDS: '0',
    ...(database ? { DB_TYPE: 'mysql', DATABASE_URL: database.url } : {}),
    ...env,
  });
  const login = await call(
    `${kb.url}/auth/login`,
    'POST',
    { 'content-type': 'application/json' },
    JSON.stringify({ username: 'admin', password: PASSWORD }),
  );
  expect(login.status).toBe(200);
  const cookie = (login.headers['set-cookie'] as string[])[0].split(';')[0];
  const newToken = async (name: string): Promise<Record<string, string>> => {
    const created = await call(
      `${kb.url}/api/tokens`,
      'POST',
      { cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      JSON.stringify({ name }),
    );
    expect(created.status).toBe(201);
    return { authorization: `Bearer ${json<{ token: string }>(created).token}` };
  };
  /**
   * A new reader signed in, with two tokens: three ways in for one person, who has one quota
   * (issue 28 item 4).
   */
  const newPerson = async (username: string): Promise<Record<string, string>[]> => {
    const created = await call(
      `${kb.url}/api/users`,
      'POST',
      { cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      JSON.stringify({ username, password: PASSWORD, role: 'reader' }),
    );
    expect(created.status).toBe(201);
    const signedIn = await call(
      `${kb.url}/auth/login`,
      'POST',
      { 'content-type': 'application/json' },
      JSON.stringify({ username, password: PASSWORD }),
    );
    expect(signedIn.status).toBe(200);
    const own = (signedIn.headers['set-cookie'] as string[])[0].split(';')[0];
    const token = async (name: string) => {
      const made = await call(
        `${kb.url}/api/tokens`,
        'POST',
        { cookie: own, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        JSON.stringify({ name }),
      );
      expect(made.status).toBe(201);
      return { authorization: `Bearer ${json<{ token: string }>(made).token}` };
    };
    return [await token('first'), { cookie: own }, await token('second')];
  };
  const stop = async () => {
    await kb.signal('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { kb, dataDir, newToken, newPerson, stop };
}

describe('KB_WORKERS=2: the media store release is safe across worker processes', () => {
  jest.setTimeout(600_000);
  const ROUNDS = 40;
  let running: Awaited<ReturnType<typeof startWorkers>>;
  let kb: RunningKb;

  beforeAll(async () => {
    running = await startWorkers({ RATE_LIMIT_READ: '0', RATE_LIMIT_WRITE: '0' });
    kb = running.kb;
  });
  afterAll(async () => running?.stop());

  it('uploads and deletes of the same bytes racing on both workers leave every row its file', async () => {
    const auth = await running.newToken('media-race');
    const bytes = Buffer.from('the same bytes, uploaded and released over and over\n');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const boundary = 'kbworkersboundary';
    const multipart = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="same.txt"\r\n` +
          'Content-Type: text/plain\r\n\r\n',
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = () =>
      call(
        `${kb.url}/api/attachments`,
        'POST',
        {
          ...auth,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(multipart.length),
        },
        multipart,
      );

    const workers = new Set<string | undefined>();
    let kept: string[] = [];
    let deleted = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Each round: new uploads of the bytes race the deletes of the last round's rows (the
      // last row of the bytes goes, so its release deletes the file an upload is linking).
      const [uploads, deletes] = await Promise.all([
        Promise.all([upload(), upload()]),
        Promise.all(kept.map((id) => call(`${kb.url}/api/attachments/${id}`, 'DELETE', auth))),
      ]);
      for (const answer of uploads) {
        expect(answer.status).toBe(201);
        workers.add(answer.worker);
      }
      for (const answer of deletes) {
        expect(answer.status).toBe(204);
        workers.add(answer.worker);
      }
      deleted += deletes.length;
      const ids = uploads.map((answer) => json<{ id: string; sha256?: string }>(answer).id);
      // Keep one row every few rounds, so rows survive to be checked at the end.
      kept = round % 5 === 4 ? ids.slice(1) : ids;
    }
    expect(deleted).toBeGreaterThan(ROUNDS);
    expect([...workers].sort()).toEqual(['1', '2']);

    // Every row left: its file is there and downloads with the right bytes, from both workers.
    const listed = await call(`${kb.url}/api/attachments?limit=100`, 'GET', auth);
    expect(listed.status).toBe(200);
    const rows = json<{ items: { id: string }[] }>(listed).items;
    expect(rows.length).toBeGreaterThanOrEqual(kept.length);
    // The local store keeps the bytes at media/<2>/<2>/<sha256>.
    const file = join(running.dataDir, 'media', sha256.slice(0, 2), sha256.slice(2, 4), sha256);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    for (const row of rows) {
      for (let i = 0; i < 2; i++) {
        const content = await call(`${kb.url}/api/attachments/${row.id}/content`, 'GET', auth);
        expect([content.status, content.body.equals(bytes)]).toEqual([200, true]);
      }
    }
    expect(kb.output()).not.toMatch(/ENOENT|NoSuchKey/);
  });
});

describe('KB_WORKERS=2: a caller’s rate limit holds across the workers', () => {
  jest.setTimeout(300_000);
  let running: Awaited<ReturnType<typeof startWorkers>>;

  beforeAll(async () => {
    running = await startWorkers({ RATE_LIMIT_READ: '10/60s' });
  });
  afterAll(async () => running?.stop());

  it('the 11th read answers 429 with Retry-After, whichever worker counted the first ten, and whichever of the person’s tokens or session made them', async () => {
    // A window can end mid-way (fixed windows): then the counts start over, so try again with
    // a new person (a new caller: tokens share their owner's quota) until one run falls in a
    // single window.
    for (let attempt = 0; attempt < 5; attempt++) {
      const ways = await running.newPerson(`reads-${attempt}`);
      const auth = ways[0];
      const answers: Answer[] = [];
      for (let i = 0; i < 11; i++)
        answers.push(await call(`${running.kb.url}/api/me`, 'GET', ways[i % ways.length]));
      const resets = answers.map((a) => Number(/;t=(\d+)/.exec(String(a.headers.ratelimit))?.[1]));
      if (resets.some((t, i) => i > 0 && t > resets[i - 1])) continue;

      expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(new Set(answers.slice(0, 10).map((a) => a.worker))).toEqual(new Set(['1', '2']));
      expect(answers.map((a) => String(a.headers.ratelimit).split(';t=')[0])).toEqual([
        ...[9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((r) => `"read";r=${r}`),
        '"read";r=0',
      ]);
      for (const answer of answers)
        expect(answer.headers['ratelimit-policy']).toBe('"read";q=10;w=60');
      const limited = answers[10];
      expect(limited.status).toBe(429);
      expect(limited.body.toString('utf8')).toContain('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);

      // Both workers refuse the person now, by any token and by session.
      const more = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          call(`${running.kb.url}/api/me`, 'GET', i === 3 ? ways[1] : auth),
        ),
      );
      const sameWindow = more.every(
        (a) => Number(/;t=(\d+)/.exec(String(a.headers.ratelimit))?.[1]) <= resets[10],
      );
      if (!sameWindow) continue;
      expect(more.map((a) => a.status)).toEqual([429, 429, 429, 429]);
      expect(new Set(more.map((a) => a.worker))).toEqual(new Set(['1', '2']));
      return;
    }
    throw new Error('every attempt crossed a rate-limit window');
  });
});
