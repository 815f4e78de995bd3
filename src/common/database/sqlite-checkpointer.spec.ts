import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteCheckpointer } from './sqlite-checkpointer';

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('SqliteCheckpointer', () => {
  let dir: string;
  let file: string;
  let db: InstanceType<typeof BetterSqlite3>;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kb-checkpoint-'));
    file = join(dir, 'kb.sqlite');
    db = new BetterSqlite3(file);
    db.pragma('journal_mode = WAL');
    db.prepare('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)').run();
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const autocheckpoint = () =>
    (db.pragma('wal_autocheckpoint') as { wal_autocheckpoint: number }[])[0].wal_autocheckpoint;

  it('turns the connection’s automatic checkpoints off and checkpoints the WAL in a worker', async () => {
    const checkpointer = new SqliteCheckpointer({ file, intervalMs: 50 }, db);
    try {
      await until(() => autocheckpoint() === 0);
      const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
      db.prepare('BEGIN').run();
      for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(2_000));
      db.prepare('COMMIT').run();
      // Nothing on this connection copies the frames; the worker does.
      await until(() => {
        const [row] = db.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[];
        return row.log > 0 && row.checkpointed === row.log;
      });
      expect(statSync(file).size).toBeGreaterThan(2_000 * 2_000);
    } finally {
      await checkpointer.close();
    }
    // Closed: the connection checkpoints by itself again (SQLite's default).
    expect(autocheckpoint()).toBe(1000);
  });

  it('closes quietly after the connection was closed (shutdown order is not guaranteed)', async () => {
    const checkpointer = new SqliteCheckpointer({ file, intervalMs: 50 }, db);
    await until(() => autocheckpoint() === 0);
    db.close();
    await expect(checkpointer.close()).resolves.toBeUndefined();
    db = new BetterSqlite3(file);
  });
});
