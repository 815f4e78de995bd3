import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollabClient } from '../support/collab-client';
import { eventually } from '../support/eventually';
import { RunningKb, startKb } from '../support/kb-process';
import { createTestDatabase, TestDatabase } from '../support/mysql-databases';
import { freePort } from '../support/ports';
import { DB_TYPE } from '../support/test-app';

const PASSWORD = 'collab-kill-password';

/**
 * Issue 30: kb is killed (SIGKILL: no shutdown hook runs) during a live session. Every keystroke
 * a peer was shown is in the document after the restart, and the clients reconnect by
 * themselves and go on.
 */
describe('live co-editing across a kill -9', () => {
  jest.setTimeout(300_000);
  let dataDir: string;
  let database: TestDatabase | undefined;
  const running: RunningKb[] = [];
  const clients: CollabClient[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kb-collab-kill-'));
    if (DB_TYPE === 'mysql') database = await createTestDatabase();
  });
  afterAll(async () => {
    clients.forEach((c) => c.destroy());
    for (const kb of running.splice(0)) await kb.signal('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(port: number): Promise<RunningKb> {
    const kb = await startKb({
      PORT: String(port),
      KB_WORKERS: '1',
      KB_DATA_DIR: dataDir,
      PASSWORD_HASH_COST: 'fast',
      KB_ADMIN_PASSWORD: PASSWORD,
      COLLAB_SAVE_IDLE_SECONDS: '3600',
      ...(database ? { DB_TYPE: 'mysql', DATABASE_URL: database.url } : {}),
    });
    running.push(kb);
    return kb;
  }

  it('keeps every keystroke a peer saw, and the clients reconnect', async () => {
    const port = await freePort();
    let kb = await start(port);
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const cookie = login.headers.getSetCookie()[0].split(';')[0];
    const created = await fetch(`${base}/api/pages`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ slug: 'crash', title: 'Crash', content: 'Start\n' }),
    });
    expect(created.status).toBe(201);

    const auth = { cookie, origin: base };
    const typist = new CollabClient(base, 'crash', auth, 'typist');
    const peer = new CollabClient(base, 'crash', auth, 'peer');
    clients.push(typist, peer);
    await eventually(() => expect(typist.synced && peer.synced).toBe(true));
    for (let i = 0; i < 200; i++) typist.type(typist.text.length, `${i % 10}`);
    const typed = typist.text.toString();
    // Acknowledged: the peer was shown it (kb stores an update before it sends it on).
    await eventually(() => expect(peer.text.toString()).toBe(typed));

    expect(await kb.signal('SIGKILL')).toBe('SIGKILL');
    running.splice(running.indexOf(kb), 1);
    kb = await start(port);

    // A fresh client reads only what kb stored.
    const fresh = new CollabClient(base, 'crash', auth, 'fresh');
    clients.push(fresh);
    await eventually(() => expect(fresh.synced).toBe(true));
    expect(fresh.text.toString()).toBe(typed);

    // The old clients came back by themselves and go on typing together.
    await eventually(() => expect(typist.synced && peer.synced).toBe(true));
    typist.type(0, 'after restart: ');
    await eventually(() => {
      expect(peer.text.toString()).toBe(`after restart: ${typed}`);
      expect(fresh.text.toString()).toBe(`after restart: ${typed}`);
    });
  });
});
