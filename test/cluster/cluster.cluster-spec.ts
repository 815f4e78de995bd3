import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { eventually } from '../support/eventually';
import { RunningKb, startKb } from '../support/kb-process';
import { createPrivateMariaDb, PrivateMariaDb } from '../support/private-mariadb';
import { S3TestServer, startS3Server } from '../support/s3-server';
import { Acknowledged, call, Outcome, startLoad } from './load';
import { freePort, inEphemeralRange } from '../support/ports';
import { Service, startNginx } from './services';

const PASSWORD = 'cluster-password';

/**
 * The deployment of docs/deploy.md on one machine: a private MariaDB and a replica of it, an
 * S3-protocol server, three kb processes and nginx with deploy/nginx/kb.conf in front, all on
 * 127.0.0.1.
 */
describe('three kb instances behind nginx', () => {
  let dir: string;
  let primary: PrivateMariaDb;
  let replica: PrivateMariaDb;
  const db = { url: '' };
  let s3: S3TestServer;
  let nginx: Service;
  const ports: number[] = [];
  const instances: RunningKb[] = [];
  let token: string;
  let readerToken: string;
  const ack: Acknowledged = { pages: [], media: [], imported: [] };

  const envFor = (port: number): Record<string, string> => {
    const dataDir = join(dir, `kb-${port}`);
    mkdirSync(dataDir, { recursive: true });
    return {
      ...s3.env,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      PORT: String(port),
      KB_DATA_DIR: dataDir,
      DB_TYPE: 'mysql',
      DATABASE_URL: db.url,
      DATABASE_REPLICA_URLS: replica.url('kb'),
      // A job of a killed instance fails after its lease (the load waits for its imports).
      IMPORT_JOB_LEASE_SECONDS: '10',
      KB_ADMIN_PASSWORD: PASSWORD,
      PASSWORD_HASH_COST: 'fast',
      TRUST_PROXY: 'loopback',
      SHUTDOWN_TIMEOUT_SECONDS: '20',
      REVIEW_CHECK_INTERVAL_SECONDS: '0',
      // The load below is one admin's, far past the default per-caller write limit (600/60 s):
      // this proof is about the instances, not the rate limits (their own spec covers those).
      RATE_LIMIT_READ: '0',
      RATE_LIMIT_WRITE: '0',
      RATE_LIMIT_SEARCH: '0',
      RATE_LIMIT_IMPORT: '0',
    };
  };
  const direct = (i: number) => `http://127.0.0.1:${ports[i]}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kb-cluster-'));
    const mariadbArgs = ['--max-connections=300', '--innodb-buffer-pool-size=64M'];
    // Each one as it comes, so that afterAll stops what started when another did not.
    const started = await Promise.allSettled([
      createPrivateMariaDb({ binlog: true, serverId: 1, extraArgs: mariadbArgs }).then(
        (server) => (primary = server),
      ),
      createPrivateMariaDb({ serverId: 2, extraArgs: mariadbArgs }).then(
        (server) => (replica = server),
      ),
      startS3Server().then((server) => (s3 = server)),
    ]);
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    await Promise.all([primary.start(), replica.start()]);
    await primary.query('CREATE DATABASE kb CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    await replica.replicate(primary);
    db.url = primary.url('kb');
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    // The first runs the migrations; the others start against the migrated database.
    instances[0] = await startKb(envFor(ports[0]));
    [instances[1], instances[2]] = await Promise.all([1, 2].map((i) => startKb(envFor(ports[i]))));
    nginx = await startNginx(dir, ports);
    token = await adminToken(nginx.url);
    const reader = await call(nginx.url, token, 'POST', '/api/users', {
      json: { username: 'cluster-reader', password: PASSWORD, role: 'reader' },
    });
    expect(reader.status).toBe(201);
    readerToken = (await newToken(nginx.url, 'cluster-reader')).token;
    // Signing in and making the token are the reader's writes: for DATABASE_REPLICA_STICKY_SECONDS
    // (10) after them its lists and searches read the primary (read-your-writes). The load reads
    // as a reader whose last write is long past, however quickly this setup ran.
    await primary.query(
      'UPDATE kb.user_write_marks SET written_at = written_at - INTERVAL 1 HOUR ' +
        "WHERE user_id = (SELECT id FROM kb.users WHERE username = 'cluster-reader')",
    );
  });
  afterAll(async () => {
    await Promise.all(instances.map((kb) => kb?.signal('SIGKILL')));
    await nginx?.stop();
    await s3?.close();
    await replica?.destroy();
    await primary?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  async function adminToken(base: string): Promise<string> {
    return (await newAdminToken(base)).token;
  }

  function newAdminToken(base: string): Promise<{ token: string; id: string; cookie: string }> {
    return newToken(base, 'admin');
  }

  async function newToken(
    base: string,
    username: string,
  ): Promise<{ token: string; id: string; cookie: string }> {
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0].split(';')[0];
    const res = await fetch(`${base}/api/tokens`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name: `cluster ${Date.now()}` }),
    });
    return { ...((await res.json()) as { token: string; id: string }), cookie };
  }

  async function seedPages(prefix: string, count: number): Promise<string[]> {
    const slugs = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
    for (const slug of slugs) {
      const res = await call(nginx.url, token, 'POST', '/api/pages', {
        json: { slug, title: `Page ${slug}`, content: `# Page ${slug}\n\nThe cluster seed.` },
      });
      expect(res.status).toBe(201);
    }
    return slugs;
  }

  /**
   * What to read when the load failed: the failures, each with the process of this deployment
   * that logged its request id (none: something else answered on an instance's port), nginx's
   * error log, each instance's log tail.
   */
  function diagnosis(failed: Outcome[], restarts: string[], stopped: RunningKb[]): string {
    const log = join(dir, 'nginx-error.log');
    const tail = (text: string) => text.split('\n').slice(-40).join('\n');
    const processes = [
      ...stopped.map((kb) => ({ name: `pid ${kb.pid} (stopped)`, kb })),
      ...instances.map((kb, i) => ({ name: `pid ${kb.pid} (instance ${i})`, kb })),
    ];
    const answeredBy = (o: Outcome) => {
      const id = (JSON.parse(o.detail ?? '{}') as { requestId?: string }).requestId;
      if (!id) return 'no request id: no kb answered';
      const found = processes.filter((p) => p.kb.output().includes(`"requestId":"${id}"`));
      return found.length > 0
        ? `logged by ${found.map((p) => p.name).join(', ')}`
        : 'logged by no kb process of this deployment';
    };
    return [
      `${failed.length} failed requests:`,
      ...failed.map((o) => `  ${o.op} ${o.status} ${o.detail} (${answeredBy(o)})`),
      'restarts:',
      ...restarts.map((r) => `  ${r}`),
      'nginx error log:',
      existsSync(log) ? tail(readFileSync(log, 'utf8')) : '(none)',
      ...instances.map(
        (kb, i) => `instance ${i} (port ${ports[i]}) log tail:\n${tail(kb.output())}`,
      ),
    ].join('\n');
  }

  it('serves a mixed load with zero failed requests while each instance restarts in turn (SIGTERM)', async () => {
    const selectsBefore = await replicaSelects();
    const load = startLoad(nginx.url, token, await seedPages('rolling', 4), ack, readerToken);
    // While an instance restarts its port is unbound; outside the kernel's ephemeral range no
    // other process's listen(0) can take it meanwhile and answer in its place (freePort).
    expect(ports.filter(inEphemeralRange)).toEqual([]);
    const restarts: string[] = [];
    const stopped: RunningKb[] = [];
    for (let i = 0; i < 3; i++) {
      restarts.push(`${new Date().toISOString()} SIGTERM instance ${i} (port ${ports[i]})`);
      expect(await instances[i].signal('SIGTERM')).toBe(0);
      expect(instances[i].output()).toContain('shut down: every request finished');
      restarts.push(`${new Date().toISOString()} instance ${i} stopped`);
      stopped.push(instances[i]);
      instances[i] = await startKb(envFor(ports[i]));
      restarts.push(`${new Date().toISOString()} instance ${i} ready again`);
    }
    const outcomes = await load.stop();
    expect(outcomes.length).toBeGreaterThan(20);
    const failed = outcomes.filter((o) => o.detail !== undefined);
    if (failed.length > 0) throw new Error(diagnosis(failed, restarts, stopped));
    expect(outcomes.filter((o) => o.op === 'import job').length).toBeGreaterThan(0);
    // Another user's lists and searches were served by the replica.
    expect(await replicaSelects()).toBeGreaterThan(selectsBefore + 10);
  });

  /** SELECT statements the replica has run so far. */
  async function replicaSelects(): Promise<number> {
    const rows = (await replica.query("SHOW GLOBAL STATUS LIKE 'Com_select'")) as {
      Value: string;
    }[];
    return Number(rows[0].Value);
  }

  it('keeps every acknowledged write after an instance is killed (SIGKILL), nothing half-written', async () => {
    const before = { pages: ack.pages.length, media: ack.media.length };
    const load = startLoad(nginx.url, token, await seedPages('killed', 4), ack);
    while (ack.pages.length < before.pages + 8) await new Promise((r) => setTimeout(r, 100));
    await instances[1].signal('SIGKILL');
    await new Promise((r) => setTimeout(r, 1500));
    await load.stop();
    instances[1] = await startKb(envFor(ports[1]));

    for (const page of ack.pages) {
      const res = await call(nginx.url, token, 'GET', `/api/pages/${page.slug}`);
      expect({ slug: page.slug, status: res.status }).toEqual({ slug: page.slug, status: 200 });
      expect((res.body as { content: string }).content).toBe(page.content);
    }
    for (const slug of ack.imported) {
      const res = await call(nginx.url, token, 'GET', `/api/pages/${slug}`);
      expect({ slug, status: res.status }).toEqual({ slug, status: 200 });
    }
    for (const item of ack.media) {
      const res = await fetch(`${nginx.url}${item.url}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(item.sha256);
    }
    // Every page has its current revision and its search row; every media row its object.
    const sql = await createConnection(db.url);
    try {
      const [withoutRevision] = await sql.query(
        'SELECT p.slug FROM pages p LEFT JOIN page_revisions r ON r.page_id = p.id AND r.revision = p.revision WHERE r.id IS NULL',
      );
      expect(withoutRevision).toEqual([]);
      const [withoutSearchRow] = await sql.query(
        'SELECT p.slug FROM pages p LEFT JOIN page_search s ON s.page_id = p.id WHERE s.page_id IS NULL',
      );
      expect(withoutSearchRow).toEqual([]);
      const [pages] = await sql.query('SELECT COUNT(*) AS n FROM pages');
      const [revisions] = await sql.query(
        'SELECT COUNT(DISTINCT page_id) AS n FROM page_revisions',
      );
      expect(Number((revisions as { n: number }[])[0].n)).toBe(
        Number((pages as { n: number }[])[0].n),
      );
    } finally {
      await sql.end();
    }
  });

  it('refuses a token revoked through one instance on every instance at the next request', async () => {
    const { token: revocable, id, cookie } = await newAdminToken(direct(0));
    // Used (and so cached) on every instance first.
    for (const base of [direct(0), direct(1), direct(2), nginx.url]) {
      expect((await call(base, revocable, 'GET', '/api/me')).status).toBe(200);
    }
    // Revoked in the browser session (the tokens screen) through instance 0.
    const revoke = await fetch(`${direct(0)}/api/tokens/${id}`, {
      method: 'DELETE',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(revoke.status).toBe(204);
    for (const base of [direct(1), direct(2), direct(0), nginx.url]) {
      expect((await call(base, revocable, 'GET', '/api/me')).status).toBe(401);
    }
  });

  it('accepts a browser session from its own address on a non-default port through nginx, refuses another origin', async () => {
    // nginx listens on a port other than 80 here: the Origin a browser sends names it, and kb
    // compares it with the Host nginx passes on (X-Forwarded-Host), which must keep the port.
    const origin = nginx.url;
    const login = await fetch(`${nginx.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie()[0].split(';')[0];
    const change = (from: string) =>
      fetch(`${nginx.url}/api/tokens`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: from },
        body: JSON.stringify({ name: `console ${Date.now()}` }),
      });
    expect((await change(origin)).status).toBe(201);
    const elsewhere = await change(origin.replace(/:\d+$/, ''));
    expect(elsewhere.status).toBe(403);
    expect(((await elsewhere.json()) as { code: string }).code).toBe('cross_origin_refused');
  });

  it('lets exactly one of three concurrent updates with the same If-Match win across instances', async () => {
    const [slug] = await seedPages('contended', 1);
    const read = await call(nginx.url, token, 'GET', `/api/pages/${slug}`);
    const etag = read.headers.get('etag')!;
    const results = await Promise.all(
      [0, 1, 2].map((i) =>
        call(direct(i), token, 'PUT', `/api/pages/${slug}`, {
          json: { title: `Page ${slug}`, content: `# Winner ${i}\n\nOne of three.` },
          headers: { 'if-match': etag },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412]);
  });

  it('keeps every referenced object in the bucket; after a purge and a sweep none is left', async () => {
    const sql = await createConnection(db.url);
    try {
      const hashes = async () =>
        ((await sql.query('SELECT DISTINCT sha256 FROM media'))[0] as { sha256: string }[])
          .map((r) => `${r.sha256.slice(0, 2)}/${r.sha256.slice(2, 4)}/${r.sha256}`)
          .sort();
      expect(ack.media.length).toBeGreaterThan(0);
      const referenced = await hashes();
      const stored = new Set(await s3.keys());
      expect(referenced.filter((key) => !stored.has(key))).toEqual([]);
      const [rows] = await sql.query('SELECT id, kind FROM media');
      for (const { id, kind } of rows as { id: string; kind: string }[]) {
        const res = await call(
          nginx.url,
          token,
          'DELETE',
          `/api/${kind === 'image' ? 'images' : 'attachments'}/${id}`,
        );
        expect(res.status).toBe(204);
      }
      expect(await hashes()).toEqual([]);
      // An upload the SIGKILL interrupted between storing its object and inserting its row left
      // the object behind: the media sweep removes it (docs/media.md). An instance started with
      // a short grace period and interval sweeps at start-up and every two seconds.
      await instances[2].signal('SIGTERM');
      instances[2] = await startKb({
        ...envFor(ports[2]),
        MEDIA_SWEEP_GRACE_SECONDS: '1',
        MEDIA_SWEEP_INTERVAL_SECONDS: '2',
      });
      await eventually(async () => expect(await s3.keys()).toEqual([]), 60_000);
    } finally {
      await sql.end();
    }
  });
});
