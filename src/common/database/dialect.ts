/**
 * What differs between SQLite and MySQL/MariaDB in the SQL kb writes, in one place. The
 * database is chosen once at start (DB_TYPE); the Database provider carries its dialect and
 * every store asks it instead of testing the database type. Plain data and functions, so the
 * store functions that use it can run in a worker thread.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'mysql';
  /** Picks the variant for this database (an implementation, a statement): exhaustive by type. */
  choose<T>(variants: { sqlite: T; mysql: T }): T;
  /** An identifier quoted for this database (for names that are reserved words, such as `key`). */
  quote(identifier: string): string;
  /**
   * Rows per INSERT statement. SQLite: one row per statement (a multi-row INSERT needs a
   * statement journal and measured ~10x slower per row inside a large transaction, while the
   * one-row statement is prepared once and reused); MySQL: as many as the parameter limit
   * allows, as round trips cost most there.
   */
  rowsPerInsert(columnCount: number): number;
  /**
   * Appended to a SELECT whose rows a transaction must hold until it ends. MySQL locks them;
   * SQLite has one writer at a time, so its transactions never interleave.
   */
  readonly forUpdate: string;
  /** `INSERT` that skips a row a unique key already holds (and, on MySQL, other row errors). */
  readonly insertIgnore: string;
  /** In an upsert's SET clause: the value the INSERT would have written to `column`. */
  inserted(column: string): string;
  /**
   * `INSERT ... ON CONFLICT/DUPLICATE KEY ... UPDATE`: `set` maps columns to SQL expressions
   * (which may use `inserted(column)`); `conflict` names the unique key (SQLite needs it).
   */
  upsert(table: string, columns: string[], conflict: string[], set: Record<string, string>): string;
}

/** Rows per statement stay well below both databases' bound-parameter limits. */
const MAX_PARAMETERS = 10_000;
const MAX_ROWS = 500;

export const SQLITE: Dialect = {
  name: 'sqlite',
  choose: (variants) => variants.sqlite,
  quote: (identifier) => `"${identifier.replace(/"/g, '""')}"`,
  rowsPerInsert: () => 1,
  forUpdate: '',
  insertIgnore: 'INSERT OR IGNORE',
  inserted: (column) => `excluded.${SQLITE.quote(column)}`,
  upsert(table, columns, conflict, set) {
    const q = SQLITE.quote;
    return (
      `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
      `ON CONFLICT (${conflict.map(q).join(', ')}) DO UPDATE SET ` +
      Object.entries(set)
        .map(([column, expression]) => `${q(column)} = ${expression}`)
        .join(', ')
    );
  },
};

export const MYSQL: Dialect = {
  name: 'mysql',
  choose: (variants) => variants.mysql,
  quote: (identifier) => `\`${identifier.replace(/`/g, '``')}\``,
  rowsPerInsert: (columnCount) =>
    Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / Math.max(1, columnCount)))),
  forUpdate: ' FOR UPDATE',
  insertIgnore: 'INSERT IGNORE',
  inserted: (column) => `VALUES(${MYSQL.quote(column)})`,
  upsert(table, columns, _conflict, set) {
    const q = MYSQL.quote;
    return (
      `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
      'ON DUPLICATE KEY UPDATE ' +
      Object.entries(set)
        .map(([column, expression]) => `${q(column)} = ${expression}`)
        .join(', ')
    );
  },
};

/** The dialect of a TypeORM connection type (`better-sqlite3`, `mysql`, `mariadb`). */
export function dialectOf(type: string): Dialect {
  if (type === 'mysql' || type === 'mariadb') return MYSQL;
  if (type === 'better-sqlite3' || type === 'sqlite') return SQLITE;
  throw new Error(`Unsupported database type: ${type}`);
}
