import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollabClient } from '../support/collab-client';
import { eventually } from '../support/eventually';
import { RunningKb, startKb } from '../support/kb-process';
import { createTestDatabase, TestDatabase } from '../support/mysql-databases';
import { freePort } from '../support/ports';
import { call } from './load';
import { Service, startNginx } from './services';

const PASSWORD = 'collab-cluster-password';
const IDLE_SECONDS = 3;

interface Revision {
  revision: number;
  author: string;
  coAuthors: string[];
}

/**
 * Issue 30, "many instances": two kb instances on one MariaDB database behind nginx
 * (deploy/nginx/kb.conf as shipped), their live sessions fanned out through Redis
 * (REDIS_URL, 127.0.0.1:6379). Two people whose WebSockets nginx sent to different instances
 * edit one page: each sees the other's typing and presence, the page view counts both on
 * either instance, a revision is written once (not once per instance) with the other as
 * co-author, and when one instance is killed (SIGKILL) its editor reconnects through nginx to
 * the other with nothing lost.
 */
describe('live co-editing on two kb instances behind nginx (Redis fan-out)', () => {
  let dir: string;
  let database: TestDatabase;
  let nginx: Service;
  const ports: number[] = [];
  const instances: RunningKb[] = [];
  const clients: CollabClient[] = [];
  let token: string;

  const envFor = (port: number): Record<string, string> => {
    const dataDir = join(dir, `kb-${port}`);
    mkdirSync(dataDir, { recursive: true });
    return {
      PORT: String(port),
      KB_WORKERS: '1',
      KB_DATA_DIR: dataDir,
      DB_TYPE: 'mysql',
      DATABASE_URL: database.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      KB_ADMIN_PASSWORD: PASSWORD,
      PASSWORD_HASH_COST: 'fast',
      TRUST_PROXY: 'loopback',
      COLLAB_SAVE_IDLE_SECONDS: String(IDLE_SECONDS),
      RATE_LIMIT_READ: '0',
      RATE_LIMIT_WRITE: '0',
      RATE_LIMIT_SEARCH: '0',
    };
  };
  const direct = (i: number) => `http://127.0.0.1:${ports[i]}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kb-collab-cluster-'));
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) ports.push(await freePort());
    // The first runs the migrations; the second starts against the migrated database.
    instances[0] = await startKb(envFor(ports[0]));
    instances[1] = await startKb(envFor(ports[1]));
    nginx = await startNginx(dir, ports);
    const login = await signIn('admin');
    const made = await fetch(`${nginx.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie: login, 'content-type': 'application/json', origin: nginx.url },
      body: JSON.stringify({ name: 'collab cluster' }),
    });
    token = ((await made.json()) as { token: string }).token;
    for (const [username, displayName] of [
      ['alice', 'Alice Archer'],
      ['bob', 'Bob Baker'],
    ]) {
      const res = await call(nginx.url, token, 'POST', '/api/users', {
        json: { username, password: PASSWORD, role: 'editor', displayName },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    clients.forEach((c) => c.destroy());
    await Promise.all(instances.map((kb) => kb?.signal('SIGKILL')));
    await nginx?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A browser session through nginx (the Origin a browser on nginx's address sends). */
  async function signIn(username: string): Promise<string> {
    const login = await fetch(`${nginx.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: nginx.url },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    return login.headers.getSetCookie()[0].split(';')[0];
  }

  /** How many live-editing connections instance `i` holds (its own /metrics, on loopback). */
  async function connectionsOn(i: number): Promise<number> {
    const text = await (await fetch(`${direct(i)}/metrics`)).text();
    return Number(/^kb_collab_connections (\d+)$/m.exec(text)?.[1] ?? 0);
  }

  /** The page's revisions, newest first. */
  async function revisions(slug: string): Promise<Revision[]> {
    const res = await call(nginx.url, token, 'GET', `/api/revisions?slug=${slug}`);
    expect(res.status).toBe(200);
    return (res.body as { items: Revision[] }).items;
  }

  /**
   * Joins `slug` through nginx as `cookie`, until nginx has sent the connection to instance
   * `want` (round robin: the next try goes to the other one).
   */
  async function joinOn(want: number, cookie: string, slug: string, name: string) {
    for (let attempt = 0; attempt < 6; attempt++) {
      const before = [await connectionsOn(0), await connectionsOn(1)];
      const client = new CollabClient(nginx.url, slug, { cookie, origin: nginx.url }, name);
      await eventually(() => expect(client.synced).toBe(true));
      const after = [await connectionsOn(0), await connectionsOn(1)];
      if (after[want] === before[want] + 1) {
        clients.push(client);
        return client;
      }
      client.destroy();
      await eventually(async () =>
        expect([await connectionsOn(0), await connectionsOn(1)]).toEqual(before),
      );
    }
    throw new Error(`nginx never sent a connection to instance ${want}`);
  }

  it('converges editors on different instances, counts and shows them everywhere, writes one revision, and loses nothing when an instance is killed', async () => {
    const slug = 'together/cluster';
    const created = await call(nginx.url, token, 'POST', '/api/pages', {
      json: { slug, title: 'Together', content: 'Shared start\n' },
    });
    expect(created.status).toBe(201);
    const [aliceCookie, bobCookie] = [await signIn('alice'), await signIn('bob')];

    const a = await joinOn(0, aliceCookie, slug, 'alice');
    // Instance 1 has no session of the page yet: it counts Alice, who edits through instance 0.
    await eventually(async () => {
      const res = await call(direct(1), token, 'GET', `/api/collab?slug=${slug}`);
      expect(res.body).toEqual({ editing: 1 });
    });
    expect(await connectionsOn(1)).toBe(0);
    const b = await joinOn(1, bobCookie, slug, 'bob');
    expect([await connectionsOn(0), await connectionsOn(1)]).toEqual([1, 1]);
    expect(a.text.toString()).toBe('Shared start\n');
    expect(b.text.toString()).toBe('Shared start\n');

    // Presence crosses instances: each sees the other's name as kb knows it.
    await eventually(() => {
      expect(a.names()).toEqual(['Bob Baker']);
      expect(b.names()).toEqual(['Alice Archer']);
    });
    // "2 editing" on the page view, whichever instance answers.
    for (const base of [direct(0), direct(1), nginx.url]) {
      await eventually(async () => {
        const res = await call(base, token, 'GET', `/api/collab?slug=${slug}`);
        expect(res.body).toEqual({ editing: 2 });
      });
    }

    // Both type at once, on the same line; each sees the other's typing.
    const before = (await revisions(slug))[0].revision;
    a.type(0, 'Alice here. ');
    b.type(b.text.length, 'Bob adds a line.\n');
    await eventually(() => {
      expect(a.text.toString()).toBe(b.text.toString());
      expect(a.text.toString()).toContain('Alice here. ');
      expect(a.text.toString()).toContain('Bob adds a line.\n');
    });
    const settled = a.text.toString();

    // Editing settles: both instances waited for the quiet, exactly one revision is written,
    // its author one of the two and the other its co-author; nothing more after another wait.
    await eventually(async () => {
      expect((await revisions(slug))[0].revision).toBe(before + 1);
    }, 20_000);
    await new Promise((r) => setTimeout(r, (IDLE_SECONDS + 2) * 1000));
    const [written, ...older] = await revisions(slug);
    expect(older[0].revision).toBe(before);
    expect(written.revision).toBe(before + 1);
    expect([written.author, ...written.coAuthors].sort()).toEqual(['alice', 'bob']);
    const page = await call(nginx.url, token, 'GET', `/api/pages/${slug}`);
    expect((page.body as { content: string }).content).toBe(settled);
    // Both editors heard of it, whichever instance wrote it.
    await eventually(() => {
      for (const c of [a, b])
        expect(c.notices).toContainEqual(
          expect.objectContaining({ type: 'saved', revision: before + 1 }),
        );
    });

    // Save pressed in both editors at once: one revision, not one per instance.
    a.type(0, 'Second round. ');
    b.type(b.text.length, 'Bob again.\n');
    await eventually(() => expect(a.text.toString()).toBe(b.text.toString()));
    a.save();
    b.save();
    await eventually(async () => expect((await revisions(slug))[0].revision).toBe(before + 2));
    await new Promise((r) => setTimeout(r, (IDLE_SECONDS + 2) * 1000));
    expect((await revisions(slug))[0].revision).toBe(before + 2);

    // Instance 1 is killed mid-session while both type. Everything a peer was shown
    // (acknowledged: kb stores an update before it sends it on) survives; Bob's editor
    // reconnects through nginx to instance 0 by itself and his typing meanwhile merges.
    for (let i = 0; i < 20; i++) {
      a.type(a.text.length, `a${i} `);
      b.type(0, `b${i} `);
    }
    await eventually(() => expect(a.text.toString()).toBe(b.text.toString()));
    const acknowledged = a.text.toString();
    expect(await instances[1].signal('SIGKILL')).toBe('SIGKILL');
    b.type(b.text.length, 'typed while kb was away\n');
    await eventually(() => expect(b.synced).toBe(true), 30_000);
    await eventually(async () => expect(await connectionsOn(0)).toBe(2), 30_000);
    await eventually(() => {
      expect(a.text.toString()).toBe(b.text.toString());
      expect(a.text.toString()).toContain('typed while kb was away\n');
    }, 30_000);
    for (const piece of acknowledged.split(' ')) expect(a.text.toString()).toContain(piece);
    expect(a.text.toString().length).toBe(acknowledged.length + 'typed while kb was away\n'.length);
    await eventually(() => expect(a.names()).toEqual(['Bob Baker']));

    // A fresh editor reads only what was stored: the same text.
    const fresh = new CollabClient(nginx.url, slug, { cookie: aliceCookie, origin: nginx.url });
    clients.push(fresh);
    await eventually(() => expect(fresh.synced).toBe(true));
    expect(fresh.text.toString()).toBe(a.text.toString());

    // Everyone leaves: the revision holds the shared text.
    const final = a.text.toString();
    for (const c of clients.splice(0)) c.destroy();
    await eventually(async () => {
      const read = await call(direct(0), token, 'GET', `/api/pages/${slug}`);
      expect((read.body as { content: string }).content).toBe(final);
    }, 20_000);
  });
});
