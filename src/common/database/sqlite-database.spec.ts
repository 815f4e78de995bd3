import BetterSqlite3 from 'better-sqlite3';
import { SqliteConnection, SqliteSql } from './sqlite-database';

describe('SqliteSql', () => {
  const connection = new BetterSqlite3(':memory:');
  afterAll(() => connection.close());
  const prepare = jest.spyOn(connection, 'prepare');
  const sql = new SqliteSql(connection as unknown as SqliteConnection);

  it('binds Dates and booleans as TypeORM stores them and reports changed rows', async () => {
    await sql.run('CREATE TABLE t (id INTEGER PRIMARY KEY, at TEXT, done INTEGER)');
    const at = new Date('2026-05-06T07:08:09.010Z');
    await expect(sql.run('INSERT INTO t (at, done) VALUES (?, ?)', [at, true])).resolves.toEqual({
      changes: 1,
    });
    await expect(sql.all('SELECT at, done FROM t')).resolves.toEqual([
      { at: '2026-05-06 07:08:09.010', done: 1 },
    ]);
    await expect(sql.run('UPDATE t SET done = ? WHERE done = ?', [false, 0])).resolves.toEqual({
      changes: 0,
    });
  });

  it('prepares each statement once', async () => {
    prepare.mockClear();
    for (let i = 0; i < 3; i++) await sql.all('SELECT COUNT(*) AS n FROM t WHERE done = ?', [1]);
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('answers a failing statement with a rejected promise carrying the driver code', async () => {
    await expect(sql.run('INSERT INTO t (id) VALUES (?)', [1])).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    });
    // Matched by shape: better-sqlite3's error class belongs to the realm that loaded it first.
    await expect(sql.all('SELECT nope FROM t')).rejects.toMatchObject({
      message: expect.stringMatching(/no such column/),
    });
  });
});
