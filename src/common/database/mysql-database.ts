import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { Database, Tx } from './database';
import { MYSQL } from './dialect';
import type { Row, RunResult, Sql } from './sql';

/**
 * `Sql` through TypeORM's MySQL driver: on the pool outside a transaction, on the
 * transaction's own connection inside one (mysql2 converts Dates and booleans itself).
 */
class MysqlSql implements Sql {
  readonly dialect = MYSQL;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner?: QueryRunner,
  ) {}

  all<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.dataSource.query(sql, [...params], this.runner);
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<RunResult> {
    const raw = (await this.dataSource.query(sql, [...params], this.runner)) as {
      affectedRows?: number;
    };
    return { changes: raw?.affectedRows ?? 0 };
  }
}

/** MySQL/MariaDB: a pool (DataSource `extra.connectionLimit`); each transaction has a connection of its own. */
export class MysqlDatabase extends Database {
  readonly dialect = MYSQL;
  private readonly pooled: Sql;
  private readonly outside: Tx;

  constructor(dataSource: DataSource) {
    super(dataSource);
    this.pooled = new MysqlSql(dataSource);
    this.outside = { sql: this.pooled, manager: dataSource.manager };
  }

  sql(tx?: Tx): Sql {
    return tx ? tx.sql : this.pooled;
  }

  transaction<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T> {
    if (tx) return work(tx);
    return this.dataSource.transaction((manager: EntityManager) =>
      work({ sql: new MysqlSql(this.dataSource, manager.queryRunner), manager }),
    );
  }

  write<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T> {
    return work(tx ?? this.outside);
  }
}
