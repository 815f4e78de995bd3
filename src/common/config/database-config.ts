import { resolve } from 'node:path';
import { Env, IntRange, IsBool, IsUrlOf, OneOf, readGroup, Rule, urlProblem } from './env-schema';
import type { Env as EnvVars } from './env-values';

export type DbType = 'sqlite' | 'mysql';

const MYSQL = ['mysql:', 'mariadb:'];

/** Where kb keeps its files: the SQLite file by default, media on local disk, temporary files. */
export class FilesConfig {
  /** KB_DATA_DIR, an absolute path. */
  @Env('KB_DATA_DIR') dataDir = './data';
}

export function filesConfig(env: EnvVars): FilesConfig {
  const files = readGroup(FilesConfig, env);
  files.dataDir = resolve(files.dataDir);
  return files;
}

export class DatabaseConfig {
  @Env('DB_TYPE') @OneOf(['sqlite', 'mysql']) type: DbType = 'sqlite';

  /** SQLITE_FILE in KB_DATA_DIR, an absolute path (sqlite only). */
  @Env('SQLITE_FILE') sqlitePath = 'kb.sqlite';

  /** DATABASE_URL: mysql://user:pass@host:port/db (mysql only). */
  @Env('DATABASE_URL')
  @Rule((v: string | undefined, db: DatabaseConfig) =>
    v !== undefined
      ? urlProblem(v, MYSQL)
      : db.type === 'mysql'
        ? 'is required when DB_TYPE=mysql (mysql://user:pass@host:3306/db)'
        : undefined,
  )
  url?: string;

  /**
   * DATABASE_REPLICA_URLS (mysql only): lag-tolerant reads go there, except a user's own reads
   * within `replicaStickySeconds` of their last write.
   */
  @Env('DATABASE_REPLICA_URLS', 'list') @IsUrlOf(MYSQL) replicaUrls: string[] = [];

  /** DATABASE_REPLICA_STICKY_SECONDS: how long after a write that user reads from the primary. */
  @Env('DATABASE_REPLICA_STICKY_SECONDS', 'int') @IntRange(0, 3600) replicaStickySeconds = 10;

  /** DB_CREATE: create the MySQL database at start when it does not exist (else kb stops and says how). */
  @Env('DB_CREATE', 'bool') @IsBool() create = false;
}

export function databaseConfig(env: EnvVars, files: FilesConfig): DatabaseConfig {
  const database = readGroup(DatabaseConfig, env);
  database.sqlitePath = resolve(files.dataDir, database.sqlitePath);
  return database;
}
