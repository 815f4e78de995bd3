import { resolve } from 'node:path';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source';
import { runMigrations } from './migrate';
import { Database } from './database';
import { MysqlDatabase } from './mysql-database';
import { ReadYourWritesInterceptor } from './read-your-writes.interceptor';
import type { AnyReadQuery } from './sql';
import { SqliteConnection, SqliteDatabase } from './sqlite-database';
import { SqliteReadPool } from './sqlite-read-pool';
import { CHECKPOINT_INTERVAL_MS, SqliteCheckpointer } from './sqlite-checkpointer';
import { processWriteLock } from './process-write-lock';
import { clusterWriteLock, inClusterWorker } from '../cluster/cluster-worker';

/**
 * The data source (migrations run at start, before the Database provider exists, so before
 * any module's start-up hook) and the Database provider every repository uses,
 * chosen once by DB_TYPE. On SQLite the provider shares the connection TypeORM opened: it is
 * handed over by `prepareDatabase`, the driver's documented hook, not read from its internals.
 */
function readPool(config: AppConfig, registries: string[]) {
  if (config.workers.readThreads === 0 || registries.length === 0) return undefined;
  const pooled = new Set<string>();
  for (const path of registries) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const registry = (require(path) as { READ_QUERIES: Map<string, AnyReadQuery> }).READ_QUERIES;
    for (const name of registry.keys()) pooled.add(name);
  }
  const pool = new SqliteReadPool(
    { file: config.database.sqlitePath, registries },
    config.workers.readThreads,
  );
  return { pool, pooled };
}

@Global()
@Module({})
export class DatabaseModule {
  /**
   * `readQueryModules`: modules exporting `READ_QUERIES` (ReadQueries by name) that the SQLite
   * read pool's workers load; the queries named there run in the pool (KB_READ_WORKERS).
   */
  static forRoot(config: AppConfig, readQueryModules: string[] = []): DynamicModule {
    let sqlite: (SqliteConnection & { pragma(sql: string): unknown }) | undefined;
    const options = buildDataSourceOptions(config, {
      onSqliteConnection: (connection) => (sqlite = connection),
    });
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...options, migrationsRun: false })],
      providers: [
        {
          provide: Database,
          inject: [DataSource],
          useFactory: async (dataSource: DataSource): Promise<Database> => {
            await runMigrations(dataSource);
            if (config.database.type === 'mysql')
              return new MysqlDatabase(dataSource, {
                urls: config.database.replicaUrls,
                stickySeconds: config.database.replicaStickySeconds,
                // A replica that hangs is given up on quickly: the read then runs on the primary.
                options: { ...options, connectTimeout: 2000 } as DataSourceOptions,
              });
            if (!sqlite) throw new Error('The SQLite connection was not opened');
            // KB_WORKERS > 1: the processes take turns at the primary's write lock; apps in
            // one process on one file, at that file's lock in the process.
            return new SqliteDatabase(
              dataSource,
              sqlite,
              readPool(config, readQueryModules),
              inClusterWorker()
                ? clusterWriteLock()
                : processWriteLock(resolve(config.database.sqlitePath)),
              // With the off-main-thread machinery on (KB_READ_WORKERS > 0), WAL checkpoints
              // run in a worker instead of inside the COMMIT that crosses the threshold.
              config.workers.readThreads > 0
                ? new SqliteCheckpointer(
                    { file: config.database.sqlitePath, intervalMs: CHECKPOINT_INTERVAL_MS },
                    sqlite,
                  )
                : undefined,
            );
          },
        },
        // Only with read replicas: without them it has nothing to do, and a global interceptor
        // costs every request an RxJS pipeline.
        ...(config.database.type === 'mysql' && config.database.replicaUrls.length > 0
          ? [{ provide: APP_INTERCEPTOR, useClass: ReadYourWritesInterceptor }]
          : []),
      ],
      exports: [Database],
    };
  }
}
