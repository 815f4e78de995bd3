import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Dialect } from './dialect';
import type { ReadQuery, Sql } from './sql';

/**
 * One unit of work on the database: a transaction (from `Database.transaction`) or, outside
 * one, the shared connection. Repository methods take it as their last, optional argument so
 * a use case can make several of them one transaction; without it they run on their own.
 */
export interface Tx {
  /** Plain SQL on this unit's connection: what the store functions take. */
  readonly sql: Sql;
  /** TypeORM on the same connection, for the repositories of the smaller tables. */
  readonly manager: EntityManager;
  /**
   * Runs `callback` once this unit's changes are committed (never when it rolls back); in a
   * joined transaction, once the outermost one commits. For what cannot roll back: the
   * Outbox's in-process listeners and delivery kicks. A throwing callback is logged.
   */
  afterCommit(callback: () => void): void;
}

const afterCommitLogger = new Logger('AfterCommit');

/**
 * The after-commit callbacks of one unit of work. `attempt` makes the Tx of each run of the
 * work (a retried deadlock, a SQLite group that runs its turns again one by one): only the
 * callbacks of the run that committed are run.
 */
export class AfterCommit {
  private callbacks: (() => void)[] = [];

  attempt(unit: { sql: Sql; manager: EntityManager }): Tx {
    const callbacks: (() => void)[] = [];
    this.callbacks = callbacks;
    return { sql: unit.sql, manager: unit.manager, afterCommit: (cb) => callbacks.push(cb) };
  }

  /**
   * For work nested in another unit's transaction (a SQLite savepoint of the turn it runs in):
   * its callbacks wait for that unit's commit. Answers `result`.
   */
  handTo<T>(outer: AfterCommit | undefined): (result: T) => T {
    if (!outer) return this.committed;
    return (result) => {
      outer.callbacks.push(...this.callbacks);
      this.callbacks = [];
      return result;
    };
  }

  /** Runs the committed run's callbacks and answers `result` (use as `.then(after.committed)`). */
  readonly committed = <T>(result: T): T => {
    for (const callback of this.callbacks) {
      try {
        callback();
      } catch (error) {
        afterCommitLogger.error({
          msg: 'after-commit callback failed',
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    this.callbacks = [];
    return result;
  };
}

/** How busy one of the queues of work is (the database's, a worker pool's), for /metrics. */
export interface PoolStats {
  /** `sqlite_writer`, `sqlite_readers`, `mysql`, `render`. */
  pool: string;
  /** Work running now. */
  active: number;
  /** Work waiting for its turn. */
  waiting: number;
}

/**
 * The one door to the database, chosen once at start by DB_TYPE (SqliteDatabase or
 * MysqlDatabase). Repositories use nothing else: no DataSource, no `isMysql`.
 *
 * - Reads outside a transaction: `sql()` / `manager()`. A read that may take more than a
 *   millisecond or two goes through `read(query, ...args)`, the seam where a worker pool of
 *   read-only connections takes it off the main thread.
 * - Writes: `transaction(work)` (all or nothing) or `write(work)` (a single statement, or
 *   TypeORM's own save). On SQLite both take their turn at the one writer, so a transaction
 *   never shares the connection with another request's statements; on MySQL/MariaDB each
 *   transaction has a pooled connection of its own.
 * - The record of what happened (an event: `Outbox.record(tx, ...)`) is written inside `work`;
 *   file moves and network calls belong after the commit (`tx.afterCommit`).
 */
export abstract class Database {
  abstract readonly dialect: Dialect;

  constructor(readonly dataSource: DataSource) {}

  /** Plain SQL in `tx`, or on the shared connection outside a transaction (reads). */
  abstract sql(tx?: Tx): Sql;

  /** TypeORM's EntityManager in `tx`, or outside a transaction (reads). */
  manager(tx?: Tx): EntityManager {
    return tx ? tx.manager : this.dataSource.manager;
  }

  /** Runs a ReadQuery. Phase 1: here, on the main thread; a worker pool plugs in behind this. */
  read<A extends unknown[], R>(query: ReadQuery<A, R>, ...args: A): Promise<R> {
    return query.run(this.sql(), ...args);
  }

  /** Whether lag-tolerant reads may go to read replicas (DATABASE_REPLICA_URLS, MySQL only). */
  get readsReplicas(): boolean {
    return false;
  }

  /** Records that `userId` just wrote, so their next reads see it (only with read replicas). */
  markWrite(userId: string): Promise<void> {
    void userId;
    return Promise.resolve();
  }

  /**
   * Long work inside a transaction (an import's write phase) calls this between its steps: on
   * SQLite, writes waiting for the transaction keep waiting instead of giving up with 503.
   */
  heartbeat(): void {}

  /** The queues in front of the database (writer, read pool, connection pool), for /metrics. */
  abstract poolStats(): PoolStats[];

  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
   * With `tx`, `work` joins that transaction instead.
   */
  abstract transaction<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T>;

  /**
   * Runs writing `work` outside a transaction (or in `tx` when given): a single statement, or
   * TypeORM's save/remove, which open their own. On SQLite it waits for its turn at the writer.
   */
  abstract write<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T>;
}
