import { dialectOf, MYSQL, SQLITE } from './dialect';

describe('Dialect', () => {
  it('is chosen by the TypeORM connection type', () => {
    expect(dialectOf('better-sqlite3')).toBe(SQLITE);
    expect(dialectOf('mysql')).toBe(MYSQL);
    expect(dialectOf('mariadb')).toBe(MYSQL);
    expect(() => dialectOf('postgres')).toThrow('Unsupported database type: postgres');
    expect(SQLITE.choose({ sqlite: 1, mysql: 2 })).toBe(1);
    expect(MYSQL.choose({ sqlite: 1, mysql: 2 })).toBe(2);
  });

  it('writes an upsert in each database syntax, quoting reserved names', () => {
    const set = (d: typeof SQLITE) => ({
      failures: 'failures + 1',
      window_start: d.inserted('window_start'),
    });
    expect(SQLITE.upsert('t', ['key', 'failures', 'window_start'], ['key'], set(SQLITE))).toBe(
      'INSERT INTO "t" ("key", "failures", "window_start") VALUES (?, ?, ?) ' +
        'ON CONFLICT ("key") DO UPDATE SET "failures" = failures + 1, "window_start" = excluded."window_start"',
    );
    expect(MYSQL.upsert('t', ['key', 'failures', 'window_start'], ['key'], set(MYSQL))).toBe(
      'INSERT INTO `t` (`key`, `failures`, `window_start`) VALUES (?, ?, ?) ' +
        'ON DUPLICATE KEY UPDATE `failures` = failures + 1, `window_start` = VALUES(`window_start`)',
    );
    expect(SQLITE.quote('a"b')).toBe('"a""b"');
    expect(MYSQL.quote('a`b')).toBe('`a``b`');
  });

  it('inserts one row per statement on SQLite and many, within the parameter limit, on MySQL', () => {
    expect(SQLITE.rowsPerInsert(26)).toBe(1);
    expect(MYSQL.rowsPerInsert(2)).toBe(500);
    expect(MYSQL.rowsPerInsert(26)).toBe(384);
    expect(MYSQL.rowsPerInsert(20_000)).toBe(1);
  });
});
