import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { toSqliteDateText } from './column-defs';
import { AfterCommit, Database, PoolStats, Tx } from './database';
import { SQLITE } from './dialect';
import { withTransactionRetry } from './database-errors';
import type { ReadQuery, Row, RunResult, Sql } from './sql';
import type { SqliteCheckpointer } from './sqlite-checkpointer';
import type { SqliteReadPool } from './sqlite-read-pool';
import { SqliteWriter, WriteGroup, WriteLock } from './sqlite-writer';

/** The part of a better-sqlite3 connection kb uses. */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  /** Whether a transaction is open on the connection (better-sqlite3's getter). */
  readonly inTransaction?: boolean;
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
  if (value instanceof Date) return toSqliteDateText(value);
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

  /** `readOnly`: a connection that never writes (a read-pool worker's), see `generation`. */
  constructor(
    private readonly connection: SqliteConnection,
    private readonly readOnly = false,
  ) {}

  async searchGeneration(): Promise<number | null> {
    // The caches it keys live in the read pool's workers (one per connection).
    if (!this.readOnly) return null;
    const [row] = await this.all<{ n: number }>('SELECT n FROM search_generation WHERE id = 1');
    // Without its row nothing counts changes: no generation, no cache (never a stale answer).
    return row ? row.n : null;
  }

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
 * The transaction a group of writer turns shares: TypeORM's query runner (better-sqlite3 has
 * one per data source, on the shared connection), so each turn's own `transaction()` inside it
 * nests as a SAVEPOINT (TypeORM counts the depth).
 */
function groupTransaction(dataSource: DataSource, connection: SqliteConnection): WriteGroup {
  const runner = () => dataSource.createQueryRunner();
  return {
    begin: () => runner().startTransaction(),
    commit: () => runner().commitTransaction(),
    rollback: () => runner().rollbackTransaction(),
    open: () => connection.inTransaction !== false && runner().isTransactionActive,
  };
}

/**
 * SQLite: one connection per process, shared by TypeORM (which opens it and hands it over
 * through `prepareDatabase`, see data-source.ts) and kb's prepared statements; transactions
 * and writes take turns at the SqliteWriter.
 */
export class SqliteDatabase extends Database {
  readonly dialect = SQLITE;
  readonly writer: SqliteWriter;
  private readonly shared: Sql;
  /** The unit of work a turn runs: a transaction started inside it is a savepoint of it. */
  private readonly unit = new AsyncLocalStorage<AfterCommit>();

  /**
   * `readPool`: where `read` sends the queries it knows by name (`pooled`); without one, before
   * its first worker is ready, or for another query, `read` runs on this connection.
   * `checkpointer`: WAL checkpoints in a worker thread (closed with the pool).
   */
  constructor(
    dataSource: DataSource,
    connection: SqliteConnection,
    private readonly readPool?: { pool: SqliteReadPool; pooled: ReadonlySet<string> },
    writeLock?: WriteLock,
    private readonly checkpointer?: SqliteCheckpointer,
  ) {
    super(dataSource);
    this.writer = new SqliteWriter(undefined, groupTransaction(dataSource, connection), writeLock);
    this.shared = new SqliteSql(connection);
  }

  override read<A extends unknown[], R>(query: ReadQuery<A, R>, ...args: A): Promise<R> {
    // Inside a write turn the read must see the turn's (and its group's) uncommitted rows.
    if (this.readPool?.pool.ready && this.readPool.pooled.has(query.name) && !this.writer.holding)
      return this.readPool.pool.query(query, args) as Promise<R>;
    return query.run(this.shared, ...args);
  }

  override heartbeat(): void {
    this.writer.heartbeat();
  }

  /** Whether `read` can hand queries to the pool now. */
  get readPoolReady(): boolean {
    return this.readPool?.pool.ready ?? false;
  }

  /** Reads the pool has answered (0 without a pool). */
  get readsServed(): number {
    return this.readPool?.pool.served ?? 0;
  }

  async onModuleDestroy(): Promise<void> {
    await this.readPool?.pool.close();
    await this.checkpointer?.close();
  }

  /** Inside a transaction or not, it is the same connection. */
  sql(): Sql {
    return this.shared;
  }

  poolStats(): PoolStats[] {
    const writer = {
      pool: 'sqlite_writer',
      active: this.writer.busy ? 1 : 0,
      waiting: this.writer.waiting,
    };
    return this.readPool ? [writer, this.readPool.pool.stats()] : [writer];
  }

  transaction<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T> {
    if (tx) return work(tx);
    // Each run of the turn (a group that runs its turns again) gets its own callbacks; started
    // inside another turn, this is a savepoint of it, whose commit the callbacks wait for.
    const after = new AfterCommit();
    const outer = this.writer.holding ? this.unit.getStore() : undefined;
    return withTransactionRetry(() =>
      this.writer.run(() =>
        this.unit.run(after, () =>
          this.dataSource.transaction((manager: EntityManager) =>
            work(after.attempt({ sql: this.shared, manager })),
          ),
        ),
      ),
    ).then(after.handTo(outer));
  }

  write<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T> {
    if (tx) return work(tx);
    const after = new AfterCommit();
    const outer = this.writer.holding ? this.unit.getStore() : undefined;
    const outside = () => after.attempt({ sql: this.shared, manager: this.dataSource.manager });
    return withTransactionRetry(() =>
      this.writer.run(() =>
        this.unit.run(after, () =>
          // In a group, the write's statements become a savepoint of their own so that a
          // failing one takes back only itself.
          this.writer.grouped
            ? this.dataSource.transaction(() => work(outside()))
            : work(outside()),
        ),
      ),
    ).then(after.handTo(outer));
  }
}
