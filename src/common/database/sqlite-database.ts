import type { DataSource, EntityManager } from 'typeorm';
import { Database, Tx } from './database';
import { SQLITE } from './dialect';
import type { Row, RunResult, Sql } from './sql';
import { SqliteWriter } from './sqlite-writer';

/** The part of a better-sqlite3 connection kb uses. */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

export interface SqliteStatement {
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
}

/** Prepared statements kept per connection; dynamic SQL (IN lists) beyond this is re-prepared. */
const STATEMENT_CACHE_SIZE = 500;

/** A parameter as TypeORM stores it on SQLite: booleans as 1/0, datetimes as UTC text. */
function bindable(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/**
 * `Sql` on a better-sqlite3 connection: every statement prepared once and reused, run without
 * TypeORM's per-call work (query runner, logger, broadcaster, result objects). The calls are
 * synchronous; the promise only keeps the interface the same as MySQL's (and a worker's).
 */
export class SqliteSql implements Sql {
  readonly dialect = SQLITE;
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(private readonly connection: SqliteConnection) {}

  all<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      const statement = this.statement(sql);
      const values = params.map(bindable);
      if (statement.reader) return Promise.resolve(statement.all(...values) as T[]);
      statement.run(...values);
      return Promise.resolve([]);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  run(sql: string, params: readonly unknown[] = []): Promise<RunResult> {
    try {
      const { changes } = this.statement(sql).run(...params.map(bindable));
      return Promise.resolve({ changes });
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private statement(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (statement) return statement;
    statement = this.connection.prepare(sql);
    if (this.statements.size >= STATEMENT_CACHE_SIZE)
      this.statements.delete(this.statements.keys().next().value as string);
    this.statements.set(sql, statement);
    return statement;
  }
}

/**
 * SQLite: one connection per process, shared by TypeORM (which opens it and hands it over
 * through `prepareDatabase`, see data-source.ts) and kb's prepared statements; transactions
 * and writes take turns at the SqliteWriter.
 */
export class SqliteDatabase extends Database {
  readonly dialect = SQLITE;
  readonly writer = new SqliteWriter();
  private readonly shared: Sql;
  private readonly outside: Tx;

  constructor(dataSource: DataSource, connection: SqliteConnection) {
    super(dataSource);
    this.shared = new SqliteSql(connection);
    this.outside = { sql: this.shared, manager: dataSource.manager };
  }

  /** Inside a transaction or not, it is the same connection. */
  sql(): Sql {
    return this.shared;
  }

  transaction<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T> {
    if (tx) return work(tx);
    return this.writer.run(() =>
      this.dataSource.transaction((manager: EntityManager) => work({ sql: this.shared, manager })),
    );
  }

  write<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T> {
    if (tx) return work(tx);
    return this.writer.run(() => work(this.outside));
  }
}
