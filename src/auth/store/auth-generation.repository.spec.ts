import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database, Tx } from '../../common/database/database';
import { SqliteConnection, SqliteSql } from '../../common/database/sqlite-database';
import { AuthGenerationRepository } from './auth-generation.repository';

describe('AuthGenerationRepository on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-generation-'));
  const file = join(dir, 'kb.sqlite');
  const own = new BetterSqlite3(file);
  const other = new BetterSqlite3(file);
  own.pragma('journal_mode = WAL');
  own.prepare('CREATE TABLE auth_generation (id INTEGER PRIMARY KEY, generation INTEGER)').run();
  own.prepare('INSERT INTO auth_generation (id, generation) VALUES (1, 0)').run();
  const sql = new SqliteSql(own as unknown as SqliteConnection);
  const tx = { sql } as unknown as Tx;
  const generations = new AuthGenerationRepository({ sql: () => sql } as unknown as Database);
  const read = jest.spyOn(sql, 'all');
  afterAll(() => {
    own.close();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the row again only when another connection committed or this process bumped', async () => {
    await expect(generations.current()).resolves.toBe(0);
    read.mockClear();
    await expect(generations.current()).resolves.toBe(0);
    expect(read).not.toHaveBeenCalled();

    other.prepare('UPDATE auth_generation SET generation = 5 WHERE id = 1').run();
    await expect(generations.current()).resolves.toBe(5);

    await generations.bump(tx);
    await expect(generations.current()).resolves.toBe(6);
    read.mockClear();
    await expect(generations.current()).resolves.toBe(6);
    expect(read).not.toHaveBeenCalled();
  });

  it('never keeps what it read inside a transaction (a bump there may be rolled back)', async () => {
    own.prepare('BEGIN').run();
    await generations.bump(tx);
    await expect(generations.current()).resolves.toBe(7);
    own.prepare('ROLLBACK').run();
    await expect(generations.current()).resolves.toBe(6);
    // A later bump that commits is seen, though it brings back the number read inside.
    await generations.bump(tx);
    await expect(generations.current()).resolves.toBe(7);
  });
});
