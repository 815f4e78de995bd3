import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type { SqliteConnection } from './sqlite-database';

const SRC_ROOT = join(__dirname, '..', '..');

/** Connections in the MySQL/MariaDB pool of one process. */
export const MYSQL_CONNECTION_LIMIT = 20;

/** The page size of a new SQLite database file (SQLite's default is 4096). */
export const SQLITE_PAGE_SIZE = 16_384;

export interface DataSourceHooks {
  /** Receives the SQLite connection TypeORM opens, so the Database provider can share it. */
  onSqliteConnection?: (connection: SqliteConnection & { pragma(sql: string): unknown }) => void;
}

/**
 * The one place that knows how to reach the database: used by the Nest app (DatabaseModule),
 * the migration CLI, the user CLI and the benchmarks. `synchronize` is always off: schema
 * changes are migrations, valid on SQLite and MySQL/MariaDB alike.
 */
export function buildDataSourceOptions(
  config: AppConfig,
  hooks: DataSourceHooks = {},
): DataSourceOptions {
  const common = {
    entities: [join(SRC_ROOT, '**', '*.entity.{ts,js}')],
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'kb_migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (config.database.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: config.database.url,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      supportBigNumbers: true,
      extra: { connectionLimit: MYSQL_CONNECTION_LIMIT },
    };
  }
  mkdirSync(dirname(config.database.sqlitePath), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: config.database.sqlitePath,
    // WAL lets readers run beside the one writer; the busy timeout queues writers of other
    // processes (the CLI) instead of failing. Within the process writes take turns at the
    // SqliteWriter (sqlite-database.ts).
    enableWAL: true,
    timeout: 10_000,
    prepareDatabase: (db: SqliteConnection & { pragma(sql: string): unknown }) => {
      // Before the first write (TypeORM switches to WAL after this hook); on an existing file
      // it changes nothing. A big transaction's COMMIT re-reads every WAL frame it rewrote in
      // place to checksum them again: 16 KiB pages mean a quarter of the frames, and halved the
      // 10,000-page import's COMMIT (~210 → ~110 ms, on the main thread) with point reads as
      // fast as with 4 KiB pages (docs/data-layer.md).
      db.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      hooks.onSqliteConnection?.(db);
    },
  };
}
