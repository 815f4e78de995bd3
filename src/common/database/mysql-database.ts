import type { DataSource, DataSourceOptions, EntityManager, QueryRunner } from 'typeorm';
import { MYSQL_CONNECTION_LIMIT } from './data-source';
import { AfterCommit, Database, PoolStats, Tx } from './database';
import { withTransactionRetry } from './database-errors';
import { MYSQL } from './dialect';
import { readContext } from './read-context';
import { ReplicaReads } from './replica-reads';
import type { ReadQuery, Row, RunResult, Sql } from './sql';

/** DATABASE_REPLICA_URLS and how to reach them. */
export interface ReplicaSettings {
  urls: string[];
  stickySeconds: number;
  /** The primary's data source options (each replica gets them with its own URL). */
  options: DataSourceOptions;
}

/**
 * `Sql` through TypeORM's MySQL driver: on the pool outside a transaction, on the
 * transaction's own connection inside one (mysql2 converts Dates and booleans itself).
 */
class MysqlSql implements Sql {
  readonly dialect = MYSQL;

  constructor(
    private readonly dataSource: DataSource,
    private readonly usage: PoolUsage,
    private readonly runner?: QueryRunner,
  ) {}

  all<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.query(sql, params) as Promise<T[]>;
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<RunResult> {
    const raw = (await this.query(sql, params)) as { affectedRows?: number };
    return { changes: raw?.affectedRows ?? 0 };
  }

  searchGeneration(): Promise<number | null> {
    return Promise.resolve(null);
  }

  private query(sql: string, params: readonly unknown[]): Promise<unknown> {
    // A statement in a transaction uses the transaction's connection, counted there.
    if (this.runner) return this.dataSource.query(sql, [...params], this.runner);
    return this.usage.count(() => this.dataSource.query(sql, [...params]));
  }
}

/**
 * Work holding (or waiting for) a pooled connection: statements outside a transaction and
 * whole transactions. Counted here rather than read from the driver's private pool state;
 * what exceeds the pool's size waits in the driver's queue.
 */
class PoolUsage {
  inFlight = 0;

  async count<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
    }
  }
}

/** MySQL/MariaDB: a pool (DataSource `extra.connectionLimit`); each transaction has a connection of its own. */
export class MysqlDatabase extends Database {
  readonly dialect = MYSQL;
  private readonly usage = new PoolUsage();
  private readonly pooled: Sql;
  private readonly replicas: ReplicaReads | null;

  constructor(dataSource: DataSource, replicas?: ReplicaSettings) {
    super(dataSource);
    this.pooled = new MysqlSql(dataSource, this.usage);
    this.replicas =
      replicas && replicas.urls.length > 0
        ? new ReplicaReads({
            ...replicas,
            primary: this.pooled,
            sqlOn: (source) => new MysqlSql(source, new PoolUsage()),
          })
        : null;
  }

  override get readsReplicas(): boolean {
    return this.replicas !== null;
  }

  /** Lag-tolerant reads may go to a replica (ReplicaReads decides); the rest to the primary. */
  override read<A extends unknown[], R>(query: ReadQuery<A, R>, ...args: A): Promise<R> {
    if (!this.replicas || !query.lagTolerant) return super.read(query, ...args);
    return this.replicas.read(readContext.getStore(), query, args, () =>
      super.read(query, ...args),
    );
  }

  override async markWrite(userId: string): Promise<void> {
    await this.replicas?.markWrite(userId);
  }

  async onModuleDestroy(): Promise<void> {
    await this.replicas?.close();
  }

  sql(tx?: Tx): Sql {
    return tx ? tx.sql : this.pooled;
  }

  poolStats(): PoolStats[] {
    const { inFlight } = this.usage;
    return [
      {
        pool: 'mysql',
        active: Math.min(inFlight, MYSQL_CONNECTION_LIMIT),
        waiting: Math.max(0, inFlight - MYSQL_CONNECTION_LIMIT),
      },
    ];
  }

  transaction<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T> {
    if (tx) return work(tx);
    const after = new AfterCommit();
    return withTransactionRetry(() =>
      this.usage.count(() =>
        this.dataSource.transaction((manager: EntityManager) =>
          work(
            after.attempt({
              sql: new MysqlSql(this.dataSource, this.usage, manager.queryRunner),
              manager,
            }),
          ),
        ),
      ),
    ).then(after.committed);
  }

  write<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T> {
    if (tx) return work(tx);
    const after = new AfterCommit();
    return withTransactionRetry(() =>
      work(after.attempt({ sql: this.pooled, manager: this.dataSource.manager })),
    ).then(after.committed);
  }
}
