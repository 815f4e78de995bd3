import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollabClient } from '../support/collab-client';
import { eventually } from '../support/eventually';
import { RunningKb, startKb } from '../support/kb-process';
import { createTestDatabase, TestDatabase } from '../support/mysql-databases';
import { freePort } from '../support/ports';
import { DB_TYPE } from '../support/test-app';

const PASSWORD = 'collab-workers-password';

/**
 * Issue 30 with KB_WORKERS=2 and no REDIS_URL: two editors whose WebSockets the cluster primary
 * gave to different workers see each other through the workers' IPC fan-out, "N editing"
 * counts both whichever worker answers, and one revision is written when editing settles.
 */
describe('live co-editing across the workers of one instance (IPC)', () => {
  jest.setTimeout(300_000);
  let dataDir: string;
  let database: TestDatabase | undefined;
  let kb: RunningKb | undefined;
  const clients: CollabClient[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kb-collab-workers-'));
    if (DB_TYPE === 'mysql') database = await createTestDatabase();
  });
  afterAll(async () => {
    clients.forEach((c) => c.destroy());
    await kb?.signal('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shares text, presence, the editing count and one revision between workers', async () => {
    const port = await freePort();
    kb = await startKb({
      PORT: String(port),
      KB_WORKERS: '2',
      KB_DATA_DIR: dataDir,
      PASSWORD_HASH_COST: 'fast',
      KB_ADMIN_PASSWORD: PASSWORD,
      COLLAB_SAVE_IDLE_SECONDS: '2',
      ...(database ? { DB_TYPE: 'mysql', DATABASE_URL: database.url } : {}),
    });
    const base = `http://127.0.0.1:${port}`;
    const session = async (username: string) => {
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      return login.headers.getSetCookie()[0].split(';')[0];
    };
    const admin = await session('admin');
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          cookie: admin,
          'content-type': 'application/json',
          'sec-fetch-site': 'same-origin',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect(
      (
        await send('POST', '/api/users', {
          username: 'bea',
          password: PASSWORD,
          role: 'editor',
          displayName: 'Bea Baker',
        })
      ).status,
    ).toBe(201);
    expect(
      (await send('POST', '/api/pages', { slug: 'ipc', title: 'IPC', content: 'Start\n' })).status,
    ).toBe(201);
    const bea = await session('bea');
    // kb_collab_documents is summed over the workers: 2 for one page = a room in each worker.
    const documents = async () =>
      Number(
        /^kb_collab_documents (\d+)$/m.exec(await (await fetch(`${base}/metrics`)).text())?.[1],
      );

    const a = new CollabClient(base, 'ipc', { cookie: admin, origin: base }, 'admin');
    clients.push(a);
    await eventually(() => expect(a.synced).toBe(true));
    // One editor, in one worker: the other worker, with no session of the page, counts them too.
    for (let i = 0; i < 6; i++) {
      await eventually(async () => {
        const res = await send('GET', '/api/collab?slug=ipc');
        expect(await res.json()).toEqual({ editing: 1 });
      });
    }
    let b: CollabClient | undefined;
    for (let attempt = 0; attempt < 8 && !b; attempt++) {
      const candidate = new CollabClient(base, 'ipc', { cookie: bea, origin: base }, 'bea');
      await eventually(() => expect(candidate.synced).toBe(true));
      if ((await documents()) === 2) b = candidate;
      else {
        candidate.destroy();
        await eventually(async () => expect(await documents()).toBe(1));
      }
    }
    if (!b) throw new Error('the primary never gave the second editor to the other worker');
    clients.push(b);

    await eventually(() => {
      expect(a.names()).toEqual(['Bea Baker']);
      expect(b.names()).toEqual(['admin']);
    });
    // Whichever worker answers (the primary takes turns), both are counted.
    for (let i = 0; i < 6; i++) {
      await eventually(async () => {
        const res = await send('GET', '/api/collab?slug=ipc');
        expect(await res.json()).toEqual({ editing: 2 });
      });
    }

    const before = ((await (await send('GET', '/api/pages/ipc')).json()) as { revision: number })
      .revision;
    a.type(0, 'From admin. ');
    b.type(b.text.length, 'From Bea.\n');
    await eventually(() => {
      expect(a.text.toString()).toBe('From admin. Start\nFrom Bea.\n');
      expect(b.text.toString()).toBe(a.text.toString());
    });
    // Both workers waited for the quiet; one revision, with the other as co-author.
    await eventually(async () => {
      const page = (await (await send('GET', '/api/pages/ipc')).json()) as {
        revision: number;
        content: string;
      };
      expect(page).toMatchObject({ revision: before + 1, content: a.text.toString() });
    });
    await new Promise((r) => setTimeout(r, 4000));
    const list = (await (await send('GET', '/api/revisions?slug=ipc')).json()) as {
      items: { revision: number; author: string; coAuthors: string[] }[];
    };
    expect(list.items[0].revision).toBe(before + 1);
    expect([list.items[0].author, ...list.items[0].coAuthors].sort()).toEqual(['admin', 'bea']);
  });
});
