import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { installSqliteSerialisation } from './sqlite-serial';

const SRC_ROOT = join(__dirname, '..', '..');

/**
 * The one place that knows how to reach the database: used by the Nest app, the migration
 * CLI, the user CLI and the benchmarks. `synchronize` is always off: schema changes are
 * migrations, valid on SQLite and MySQL/MariaDB alike.
 */
export function buildDataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    entities: [join(SRC_ROOT, '**', '*.entity.{ts,js}')],
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'kb_migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if (config.dbType === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: config.databaseUrl,
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      supportBigNumbers: true,
      extra: { connectionLimit: 20 },
    };
  }
  mkdirSync(dirname(config.sqlitePath), { recursive: true });
  // One shared connection: transactions of concurrent requests must take turns (see sqlite-serial).
  installSqliteSerialisation();
  return {
    ...common,
    type: 'better-sqlite3',
    database: config.sqlitePath,
    // WAL lets readers run beside the one writer; the busy timeout queues writers instead of failing.
    enableWAL: true,
    timeout: 10_000,
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
    },
  };
}

export function isMysql(options: { type: string }): boolean {
  return options.type === 'mysql' || options.type === 'mariadb';
}
