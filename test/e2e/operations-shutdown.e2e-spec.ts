import { mkdtempSync, rmSync } from 'node:fs';
import { get, IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningKb, startKb } from '../support/kb-process';
import { createTestDatabase, TestDatabase } from '../support/mysql-databases';
import { DB_TYPE } from '../support/test-app';
import { sha256 } from '../support/media-support';

const PASSWORD = 'shutdown-password';

/**
 * SIGTERM to a real kb process: /readyz turns 503 first, then new connections are refused, a
 * download in flight still arrives whole, and the process exits 0 after closing its pool; past
 * SHUTDOWN_TIMEOUT_SECONDS what is still open is cut.
 */
describe('graceful shutdown', () => {
  jest.setTimeout(150_000);
  let dataDir: string;
  let database: TestDatabase | undefined;
  let kb: RunningKb | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kb-shutdown-'));
  });
  afterEach(async () => {
    await kb?.signal('SIGKILL');
    kb = undefined;
    await database?.drop();
    database = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string>): Promise<RunningKb> {
    if (DB_TYPE === 'mysql') database = await createTestDatabase();
    kb = await startKb({
      KB_DATA_DIR: dataDir,
      PASSWORD_HASH_COST: 'fast',
      KB_ADMIN_PASSWORD: PASSWORD,
      ...(database ? { DB_TYPE: 'mysql', DATABASE_URL: database.url } : {}),
      ...env,
    });
    return kb;
  }

  /** Signs in as the bootstrap admin and uploads `data` as an attachment; answers its URL and a token. */
  async function uploaded(data: Buffer): Promise<{ url: string; token: string }> {
    const login = await fetch(`${kb!.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const cookie = login.headers.getSetCookie()[0].split(';')[0];
    const token = await fetch(`${kb!.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name: 'shutdown' }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    const form = new FormData();
    form.append('file', new Blob([data]), 'big.bin');
    const res = await fetch(`${kb!.url}/api/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    return { url: ((await res.json()) as { url: string }).url, token: token.token };
  }

  /** Starts a download and holds it after the first chunk: a stream in flight. */
  function heldDownload(
    url: string,
    token: string,
  ): Promise<{ res: IncomingMessage; first: Buffer }> {
    return new Promise((resolve, reject) => {
      get(`${kb!.url}${url}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.once('data', (first: Buffer) => {
          res.pause();
          resolve({ res, first });
        });
      }).once('error', reject);
    });
  }

  function rest(res: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    return new Promise((resolve, reject) => {
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => resolve(Buffer.concat(chunks)));
      res.once('error', reject);
      res.resume();
    });
  }

  it('answers 503 on /readyz first, refuses new connections, finishes the stream in flight and exits 0', async () => {
    await start({ SHUTDOWN_DELAY_SECONDS: '5', SHUTDOWN_TIMEOUT_SECONDS: '60' });
    const data = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(30 * 1024 * 1024, 7)]);
    const { url, token } = await uploaded(data);
    expect((await fetch(`${kb!.url}/readyz`)).status).toBe(200);
    const { res, first } = await heldDownload(url, token);
    expect(res.statusCode).toBe(200);

    const exited = kb!.signal('SIGTERM');
    // The signal reaches the process on its own schedule: ask once it has said it is shutting down.
    while (!kb!.output().includes('SIGTERM: shutting down')) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ready = await fetch(`${kb!.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 503, code: 'shutting_down' });
    // Once the listener has closed, a new connection is refused (a proxy tries the next instance).
    // (A kept-alive connection the client still had may be closed under it first: ECONNRESET.)
    let failure: string | undefined;
    while (failure !== 'ECONNREFUSED') {
      failure = await fetch(`${kb!.url}/healthz`).then(
        () => undefined,
        (error: Error) => (error.cause as NodeJS.ErrnoException).code,
      );
    }

    const body = Buffer.concat([first, await rest(res)]);
    expect(body.length).toBe(data.length);
    expect(sha256(body)).toBe(sha256(data));
    expect(await exited).toBe(0);
    expect(kb!.output()).toContain('SIGTERM: shutting down, /readyz answers 503');
    expect(kb!.output()).toContain(
      'shut down: every request finished, the database pool is closed',
    );
    expect(kb!.output()).not.toContain('shutdown deadline reached');
  });

  it('cuts what is still open at SHUTDOWN_TIMEOUT_SECONDS and still exits 0', async () => {
    await start({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const data = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(30 * 1024 * 1024, 5)]);
    const { url, token } = await uploaded(data);
    const { res, first } = await heldDownload(url, token);
    expect(await kb!.signal('SIGTERM')).toBe(0);
    // The held download was cut: what arrives ends short of the content.
    const received = await rest(res).then(
      (body) => first.length + body.length,
      () => -1,
    );
    expect(received).toBeLessThan(data.length);
    expect(kb!.output()).toContain('shutdown deadline reached: connections still open were cut');
    expect(kb!.output()).toContain(
      'shut down: every request finished, the database pool is closed',
    );
  });
});
