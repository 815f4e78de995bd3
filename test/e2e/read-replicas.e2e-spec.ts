import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningKb, startKb } from '../support/kb-process';
import { createPrivateMariaDb, PrivateMariaDb } from '../support/private-mariadb';
import { DB_TYPE } from '../support/test-app';

const PASSWORD = 'replica-password';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  base: string,
  auth: { token?: string; cookie?: string },
  method: string,
  path: string,
  json?: unknown,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth.cookie) {
    headers.cookie = auth.cookie;
    headers['sec-fetch-site'] = 'same-origin';
  }
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Signs `username` in: the session cookie. */
async function signIn(base: string, username: string, password: string): Promise<string> {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(login.status).toBe(200);
  return login.headers.getSetCookie()[0].split(';')[0];
}

/** Signs `username` in and creates a token for them. */
async function tokenOf(base: string, username: string, password: string): Promise<string> {
  const cookie = await signIn(base, username, password);
  const res = await call(base, { cookie }, 'POST', '/api/tokens', { name: 'replicas' });
  expect(res.status).toBe(201);
  return String(res.body.token);
}

type Auth = { token?: string; cookie?: string };

async function listed(base: string, auth: Auth): Promise<string[]> {
  const res = await call(base, auth, 'GET', '/api/pages?limit=100');
  expect(res.status).toBe(200);
  return (res.body.items as { slug: string }[]).map((p) => p.slug);
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within 120 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function createPage(base: string, token: string, slug: string): Promise<Answer> {
  return call(base, { token }, 'POST', '/api/pages', {
    slug,
    title: `Page ${slug}`,
    content: `# Page ${slug}\n\nReplicated.`,
  });
}

/**
 * DATABASE_REPLICA_URLS with a real replica: a second private mariadbd replicating the first
 * (binlog, CHANGE MASTER TO, START SLAVE), two kb processes on them. Lag is forced with
 * STOP SLAVE SQL_THREAD, which shows where each read went.
 */
(DB_TYPE === 'mysql' ? describe : describe.skip)('read replicas (MariaDB)', () => {
  jest.setTimeout(300_000);
  let dir: string;
  let primary: PrivateMariaDb;
  let replica: PrivateMariaDb;
  const kbs: RunningKb[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kb-replicas-'));
    [primary, replica] = await Promise.all([
      createPrivateMariaDb({ binlog: true, serverId: 1 }),
      createPrivateMariaDb({ serverId: 2 }),
    ]);
    await Promise.all([primary.start(), replica.start()]);
    await primary.query('CREATE DATABASE kb CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    await replica.replicate(primary);
    const env = (n: number) => {
      const dataDir = join(dir, `kb-${n}`);
      return {
        KB_DATA_DIR: dataDir,
        DB_TYPE: 'mysql',
        DATABASE_URL: primary.url('kb'),
        DATABASE_REPLICA_URLS: replica.url('kb'),
        // Generous, so that a loaded machine's slow requests stay inside it.
        DATABASE_REPLICA_STICKY_SECONDS: '300',
        KB_ADMIN_PASSWORD: PASSWORD,
        PASSWORD_HASH_COST: 'fast',
        REVIEW_CHECK_INTERVAL_SECONDS: '0',
      };
    };
    kbs.push(await startKb(env(0)));
    kbs.push(await startKb(env(1)));
  });
  afterAll(async () => {
    await Promise.all(kbs.map((kb) => kb.signal('SIGKILL')));
    await replica?.destroy();
    await primary?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a user’s own write from the primary, another user’s lists from the lagging replica, the primary when the replica is down', async () => {
    const [one, two] = kbs.map((kb) => kb.url);
    const adminToken = await tokenOf(one, 'admin', PASSWORD);
    const admin = { token: adminToken };
    const created = await call(one, admin, 'POST', '/api/users', {
      username: 'reader-b',
      password: PASSWORD,
      role: 'reader',
    });
    expect(created.status).toBe(201);
    // The reader only signs in (their session is theirs on every instance) and never writes.
    const reader = { cookie: await signIn(two, 'reader-b', PASSWORD) };

    // Replication runs: the reader's list (from the replica) catches up with a new page.
    expect((await createPage(one, adminToken, 'before-lag')).status).toBe(201);
    await until('the replica has the page', async () =>
      (await listed(two, reader)).includes('before-lag'),
    );

    // The replica stops applying what it receives: it lags from now on.
    await replica.query('STOP SLAVE SQL_THREAD');
    expect((await createPage(one, adminToken, 'during-lag')).status).toBe(201);
    // The writer's next reads, on the other instance too, come from the primary.
    expect(await listed(two, admin)).toContain('during-lag');
    expect(await listed(one, admin)).toContain('during-lag');
    // Another user's list comes from the replica, which lacks the page...
    for (const base of [one, two]) {
      const slugs = await listed(base, reader);
      expect(slugs).toContain('before-lag');
      expect(slugs).not.toContain('during-lag');
    }
    // ...while a single page read (not lag-tolerant) comes from the primary.
    expect((await call(two, reader, 'GET', '/api/pages/during-lag')).status).toBe(200);

    await replica.query('START SLAVE SQL_THREAD');
    await until('the replica caught up', async () =>
      (await listed(two, reader)).includes('during-lag'),
    );

    // The replica goes away: its reads fall back to the primary, no request fails.
    await replica.stop();
    expect((await createPage(one, adminToken, 'replica-down')).status).toBe(201);
    for (const base of [one, two]) expect(await listed(base, reader)).toContain('replica-down');
    expect(kbs[0].output() + kbs[1].output()).toContain(
      'read replica failed: reading from the primary',
    );
  });
});

(DB_TYPE === 'sqlite' ? describe : describe.skip)('read replicas (SQLite)', () => {
  jest.setTimeout(120_000);
  let dataDir: string;
  let kb: RunningKb | undefined;
  afterEach(async () => {
    await kb?.signal('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ignores DATABASE_REPLICA_URLS: every read is the one file’s', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kb-replicas-sqlite-'));
    kb = await startKb({
      KB_DATA_DIR: dataDir,
      KB_ADMIN_PASSWORD: PASSWORD,
      PASSWORD_HASH_COST: 'fast',
      // Nothing listens there: were it used, reads would fail or fall back with a warning.
      DATABASE_REPLICA_URLS: 'mysql://root@127.0.0.1:9/kb',
    });
    const admin = await tokenOf(kb.url, 'admin', PASSWORD);
    expect((await createPage(kb.url, admin, 'only-file')).status).toBe(201);
    expect(await listed(kb.url, { token: admin })).toContain('only-file');
    expect(kb.output()).not.toContain('read replica');
  });
});
