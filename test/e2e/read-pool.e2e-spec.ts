import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { Database } from '../../src/common/database/database';
import { SqliteDatabase } from '../../src/common/database/sqlite-database';
import { eventually } from '../support/eventually';
import { createTestApp, DB_TYPE, TestApp } from '../support/test-app';
import { Client, createGroup, createUser, login, TestUser } from '../support/users';
import { createPage } from '../support/search-support';
import { listTags } from '../../src/pages/store/page-lists';

/** What each list route answers, read through the read pool and on the main thread. */
const READS = [
  '/api/search?q=runbook',
  '/api/search?q=runbook&limit=2',
  '/api/search?q=deploy%20runbook',
  '/api/search?q=kuber*',
  '/api/search?q=gardening',
  '/api/recent',
  '/api/recent?limit=3',
  '/api/pages?tag=ops',
  '/api/tags',
  '/api/graph',
  '/api/tree',
  '/api/tree?parent=ops',
];

/** Every answer of READS for one caller, following each list's cursor to its end. */
/** Pool reads an answer took: one, and a second for "Did you mean" when a search found few. */
let expectedReads = 0;

async function answers(client: Client): Promise<unknown[]> {
  const bodies: unknown[] = [];
  expectedReads = 0;
  for (const path of READS) {
    let next: string | null = path;
    while (next) {
      const res: {
        body: { nextCursor?: string | null; items?: unknown[]; didYouMean?: unknown };
      } = await client.get(next).expect(200);
      bodies.push({ path: next, body: res.body });
      expectedReads++;
      const searchedFew =
        next.startsWith('/api/search?') &&
        !next.includes('cursor=') &&
        (res.body.items?.length ?? 0) < 3 &&
        /[?&]q=[^&]*[a-z]/i.test(next);
      if (searchedFew) expectedReads++;
      const cursor = res.body.nextCursor;
      next = cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}` : null;
    }
  }
  return bodies;
}

// The read pool is SQLite's (worker threads with read-only connections); MySQL reads in-process.
(DB_TYPE === 'sqlite' ? describe : describe.skip)('SQLite read pool', () => {
  let pooled: TestApp;
  let inline: TestApp;
  const users: Record<string, TestUser> = {};
  const readPool = () => pooled.get(Database) as SqliteDatabase;

  beforeAll(async () => {
    pooled = await createTestApp({ KB_READ_WORKERS: '2' });
    // A second app on the same file, reading on its main thread.
    inline = await createTestApp({ KB_DATA_DIR: pooled.dataDir, KB_READ_WORKERS: '0' });
    await createGroup(pooled, 'ops-team');
    users.admin = await createUser(pooled, 'admin');
    users.member = await createUser(pooled, 'reader', { groups: ['ops-team'] });
    users.outsider = await createUser(pooled, 'reader');
    const admin = await login(pooled, users.admin);
    for (let i = 0; i < 12; i++) {
      await createPage(admin, {
        slug: `ops/runbook-${i}`,
        title: `Deploy runbook ${i}`,
        content: `Kubernetes runbook ${i}: see [the next](/ops/runbook-${i + 1}). Gardening aside.`,
        tags: i % 2 ? ['ops', 'deploy'] : ['ops'],
        groups: i % 3 === 0 ? ['ops-team'] : [],
      });
    }
    await createPage(admin, { slug: 'garden/roses', title: 'Roses', content: 'gardening' });
    await admin.delete('/api/pages/ops/runbook-11').expect(204);
    // Until a worker has loaded its modules, reads run on the main thread.
    await eventually(() => expect(readPool().readPoolReady).toBe(true), 60_000);
  });
  afterAll(async () => {
    await inline?.close();
    await pooled?.close();
  });

  it('runs list and search reads in the pool', async () => {
    const db = readPool();
    expect(db.poolStats().map((s) => s.pool)).toEqual(['sqlite_writer', 'sqlite_readers']);
    expect((inline.get(Database) as SqliteDatabase).poolStats().map((s) => s.pool)).toEqual([
      'sqlite_writer',
    ]);
    const before = db.readsServed;
    await (await login(pooled, users.outsider)).get('/api/search?q=runbook').expect(200);
    await (await login(pooled, users.outsider)).get('/api/recent').expect(200);
    expect(db.readsServed - before).toBe(2);
  });

  it.each(['admin', 'member', 'outsider'])(
    'answers %s exactly as reads on the main thread do',
    async (who) => {
      const served = readPool().readsServed;
      const fromPool = await answers(await login(pooled, users[who]));
      expect(readPool().readsServed - served).toBe(expectedReads);
      const fromMain = await answers(await login(inline, users[who]));
      expect(fromPool).toEqual(fromMain);
      expect(JSON.stringify(fromPool)).toContain('ops/runbook-1');
    },
  );

  it('sees a write as soon as it is committed', async () => {
    const admin = await login(pooled, users.admin);
    // Asked twice before the write: the answer each worker caches must not outlive it.
    for (let i = 0; i < 2; i++)
      expect((await admin.get('/api/search?q=zebra').expect(200)).body.items).toEqual([]);
    await createPage(admin, { slug: 'fresh/zebra', title: 'Zebra crossing', content: 'stripes' });
    const found = await admin.get('/api/search?q=zebra').expect(200);
    expect(found.body.items.map((i: { slug: string }) => i.slug)).toEqual(['fresh/zebra']);
    const recent = await admin.get('/api/recent?limit=1').expect(200);
    expect(recent.body.items[0].slug).toBe('fresh/zebra');
  });

  it('keeps cached searches across commits that cannot change them, never across those that can', async () => {
    // The generation the pool's search cache is keyed by, read as the pool reads it.
    const file = new BetterSqlite3(join(pooled.dataDir, 'kb.sqlite'), { readonly: true });
    const generation = () =>
      (file.prepare('SELECT n FROM search_generation WHERE id = 1').all()[0] as { n: number }).n;
    try {
      const admin = await login(pooled, users.admin);
      const outsider = await login(pooled, users.outsider);
      await createPage(admin, { slug: 'zoo/okapi', title: 'Okapi', content: 'striped legs' });
      const slugsFound = async () =>
        (await outsider.get('/api/search?q=okapi').expect(200)).body.items.map(
          (i: { slug: string }) => i.slug,
        );
      expect(await slugsFound()).toEqual(['zoo/okapi']);

      // Sessions, tokens and reads commit too: the cached answers stay.
      const before = generation();
      await login(pooled, users.member);
      await admin.post('/api/tokens').send({ name: 'ci' }).expect(201);
      await admin.get('/api/pages/zoo/okapi').expect(200);
      expect(generation()).toBe(before);
      expect(await slugsFound()).toEqual(['zoo/okapi']);

      // Into a group the outsider is not in: the very next search no longer shows it.
      await admin
        .put('/api/pages/zoo/okapi')
        .send({ baseRevision: 1, groups: ['ops-team'] })
        .expect(200);
      expect(generation()).toBeGreaterThan(before);
      expect(await slugsFound()).toEqual([]);
      await admin.put('/api/pages/zoo/okapi').send({ baseRevision: 2, groups: [] }).expect(200);
      expect(await slugsFound()).toEqual(['zoo/okapi']);

      // A new title is shown at once; the bin and a restore are seen at once.
      await admin
        .put('/api/pages/zoo/okapi')
        .send({ baseRevision: 3, title: 'Okapi johnstoni' })
        .expect(200);
      const titles = (await outsider.get('/api/search?q=okapi').expect(200)).body.items.map(
        (i: { title: string }) => i.title,
      );
      expect(titles).toEqual(['Okapi johnstoni']);
      const binned = await admin.delete('/api/pages/zoo/okapi').expect(204);
      expect(binned.status).toBe(204);
      expect(await slugsFound()).toEqual([]);
      const [{ id }] = (await admin.get('/api/bin').expect(200)).body.items.filter(
        (p: { slug: string }) => p.slug === 'zoo/okapi',
      );
      await admin.post(`/api/bin/${id}/restore`).expect(200);
      expect(await slugsFound()).toEqual(['zoo/okapi']);
    } finally {
      file.close();
    }
  });

  // Last: it closes the pool. At shutdown the HTTP server drains first, but a request whose
  // client hung up still awaits its query: closing the pool lets the reads in hand finish.
  it('answers the reads in hand when it closes', async () => {
    const db = readPool();
    const admin = { role: 'admin' as const, groups: [] };
    const before = db.readsServed;
    const reads = Array.from({ length: 40 }, () => db.read(listTags, admin, undefined, 50));
    expect(db.readsServed).toBe(before);
    await db.onModuleDestroy();
    const answered = await Promise.allSettled(reads);
    expect(answered.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(db.readsServed - before).toBe(40);
    expect(db.readPoolReady).toBe(false);
  });
});
