import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLITE_PAGE_SIZE } from '../../src/common/database/data-source';
import { createTestApp, DB_TYPE, TestApp } from '../support/test-app';
import { signedIn } from '../support/users';

/** The page size of the database file in `dataDir`. */
function pageSizeOf(dataDir: string): number {
  const db = new BetterSqlite3(join(dataDir, 'kb.sqlite'), { readonly: true });
  try {
    return (db.pragma('page_size') as { page_size: number }[])[0].page_size;
  } finally {
    db.close();
  }
}

(DB_TYPE === 'sqlite' ? describe : describe.skip)('SQLite page size', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  it('creates a new database with 16 KiB pages', async () => {
    t = await createTestApp();
    const admin = await signedIn(t, 'admin');
    await admin.post('/api/pages').send({ slug: 'a', title: 'A', content: 'Text.' }).expect(201);
    expect(SQLITE_PAGE_SIZE).toBe(16_384);
    expect(pageSizeOf(t.dataDir)).toBe(SQLITE_PAGE_SIZE);
  });

  it('keeps the page size of an existing database and serves it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kb-test-'));
    const before = new BetterSqlite3(join(dataDir, 'kb.sqlite'));
    before.pragma('journal_mode = WAL');
    before.prepare('CREATE TABLE earlier (id INTEGER PRIMARY KEY)').run();
    before.close();
    expect(pageSizeOf(dataDir)).toBe(4096);

    t = await createTestApp({ KB_DATA_DIR: dataDir });
    const admin = await signedIn(t, 'admin');
    await admin.post('/api/pages').send({ slug: 'b', title: 'B', content: 'Text.' }).expect(201);
    expect((await admin.get('/api/pages/b').expect(200)).body.title).toBe('B');
    expect(pageSizeOf(dataDir)).toBe(4096);
  });
});
