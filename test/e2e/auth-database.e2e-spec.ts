import { randomUUID } from 'node:crypto';
import { GroupEntity } from '../../src/auth/entities/group.entity';
import { Database } from '../../src/common/database/database';
import { SqliteDatabase } from '../../src/common/database/sqlite-database';
import { createTestApp, DB_TYPE, TestApp } from '../support/test-app';

const isSqlite = DB_TYPE === 'sqlite';

/**
 * Concurrent transactions must not see or undo each other's work. On SQLite there is one
 * connection, so the Database provider makes transactions and writes take turns
 * (src/common/database/sqlite-writer.ts); on MariaDB each transaction has a pooled connection
 * of its own. Every write goes through the Database (repositories do), as here.
 */
describe('database: concurrent transactions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  const db = () => t.get(Database);
  const groups = () => t.dataSource.getRepository(GroupEntity);
  const group = (name: string) => ({ id: randomUUID(), name, createdAt: new Date() });
  const pause = () => new Promise((resolve) => setTimeout(resolve, 2));

  it('commits each successful transaction whole and rolls each failed one back whole', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        db().transaction(async ({ manager }) => {
          await manager.insert(GroupEntity, group(`a${i}`));
          await pause();
          await manager.insert(GroupEntity, group(`b${i}`));
          if (i % 2 === 1) throw new Error(`planned failure ${i}`);
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? 'rejected' : 'fulfilled')),
    );
    for (const [i, r] of results.entries()) {
      if (r.status === 'rejected') expect((r.reason as Error).message).toBe(`planned failure ${i}`);
    }
    const names = (await groups().find()).map((g) => g.name).sort();
    const expected = Array.from({ length: 10 }, (_, k) => [`a${k * 2}`, `b${k * 2}`])
      .flat()
      .sort();
    expect(names).toEqual(expected);
  });

  it('keeps writes made outside a transaction out of a concurrent one that rolls back', async () => {
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    const failing = db().transaction(async ({ manager }) => {
      await manager.insert(GroupEntity, group('rolled-back'));
      inside();
      await new Promise((resolve) => setTimeout(resolve, 30));
      throw new Error('rollback');
    });
    const outcome = failing.then(
      () => 'committed',
      (error: Error) => error.message,
    );
    await started;
    // Written by "another request" while the transaction above is open.
    await db().write(({ manager }) => manager.save(GroupEntity, group('independent')));
    await db().write(({ manager }) => manager.insert(GroupEntity, group('inserted')));
    expect(await outcome).toBe('rollback');
    expect((await groups().find()).map((g) => g.name).sort()).toEqual(['independent', 'inserted']);
  });

  it('keeps answering reads (and /readyz) while a long transaction is open', async () => {
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    let finishReads!: () => void;
    const readsDone = new Promise<void>((resolve) => (finishReads = resolve));
    let transactionOpen = true;
    const long = db().transaction(async ({ manager }) => {
      await manager.insert(GroupEntity, group('slow'));
      inside();
      // Holds the transaction until the reads are answered (or gives up after 10 s).
      await Promise.race([
        readsDone,
        new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
      ]);
      transactionOpen = false;
    });
    await started;
    await t.http().get('/readyz').expect(200);
    await groups().count();
    expect(transactionOpen).toBe(true);
    finishReads();
    await long;
  });

  it('supports nested transactions (savepoints) inside one', async () => {
    await db().transaction(async ({ manager: outer }) => {
      await outer.insert(GroupEntity, group('outer'));
      await expect(
        outer.transaction(async (inner) => {
          await inner.insert(GroupEntity, group('inner'));
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await outer.save(GroupEntity, group('saved-inside'));
    });
    expect((await groups().find()).map((g) => g.name).sort()).toEqual(['outer', 'saved-inside']);
  });

  (isSqlite ? it : it.skip)(
    'gives up a write that waits too long with 503 database_busy (SQLite)',
    async () => {
      const writer = (db() as SqliteDatabase).writer;
      writer.waitMs = 100;
      try {
        let inside!: () => void;
        const started = new Promise<void>((resolve) => (inside = resolve));
        let finish!: () => void;
        const done = new Promise<void>((resolve) => (finish = resolve));
        const long = db().transaction(async ({ manager }) => {
          await manager.insert(GroupEntity, group('holder'));
          inside();
          await done;
        });
        await started;
        const error = await db()
          .write(({ manager }) => manager.insert(GroupEntity, group('waiter')))
          .then(
            () => null,
            (e: { status?: number; code?: string }) => ({ status: e.status, code: e.code }),
          );
        expect(error).toEqual({ status: 503, code: 'database_busy' });
        finish();
        await long;
        await db().write(({ manager }) => manager.insert(GroupEntity, group('after')));
        expect((await groups().find()).map((g) => g.name).sort()).toEqual(['after', 'holder']);
      } finally {
        writer.waitMs = 30_000;
      }
    },
  );
});
