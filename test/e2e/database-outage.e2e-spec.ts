import { createConnection } from 'mysql2/promise';
import { newPage } from '../support/pages';
import { problem } from '../support/problems';
import { createPrivateMariaDb, PrivateMariaDb } from '../support/private-mariadb';
import { createTestApp, DB_TYPE, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

/**
 * While the database is unreachable every request answers 503 `database_unavailable` with
 * Retry-After, like /readyz, never 500 (issue 9, item 9). On MariaDB the test stops a private
 * mariadbd of its own; on SQLite the connection is closed under the running app.
 */
describe('database outage', () => {
  let t: TestApp;
  let mariadb: PrivateMariaDb | undefined;
  let editor: Client;

  beforeAll(async () => {
    if (DB_TYPE === 'mysql') {
      mariadb = await createPrivateMariaDb();
      await mariadb.start();
      const admin = await createConnection(mariadb.url(''));
      await admin.query('CREATE DATABASE kb CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
      await admin.end();
      t = await createTestApp({ DATABASE_URL: mariadb.url('kb') });
    } else {
      t = await createTestApp();
    }
    editor = await signedIn(t, 'editor');
    await editor.withToken(); // warms nothing: every request below reaches the database
  }, 120_000);
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await mariadb?.destroy();
  });

  async function takeDatabaseAway(): Promise<void> {
    if (mariadb) await mariadb.stop();
    else await t.dataSource.destroy();
  }

  it('answers 503 database_unavailable with Retry-After and writes nothing', async () => {
    await editor.post('/api/pages').send(newPage('before/outage')).expect(201);
    await takeDatabaseAway();

    const ready = await editor.get('/readyz').expect(503);
    expect(ready.body).toEqual(problem(503, 'database_unavailable'));
    for (const request of [
      editor.get('/api/pages/before/outage'),
      editor.get('/api/pages'),
      editor.post('/api/pages').send(newPage('during/outage')),
    ]) {
      const res = await request;
      expect({ status: res.status, body: res.body }).toEqual({
        status: 503,
        body: problem(503, 'database_unavailable'),
      });
      expect(res.headers['retry-after']).toBe('5');
    }
    await editor.get('/healthz').expect(200);

    if (mariadb) {
      // Back up: the refused write left nothing behind, the earlier one is intact.
      await mariadb.start();
      const check = await createConnection(mariadb.url('kb'));
      const [rows] = await check.query('SELECT slug FROM pages ORDER BY slug');
      await check.end();
      expect((rows as { slug: string }[]).map((r) => r.slug)).toEqual(['before/outage']);
    }
  }, 120_000);
});
