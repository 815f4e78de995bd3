import { Abstract, INestApplication, Type } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { AppConfig, loadConfig } from '../../src/common/config/app-config';
import { createTestDatabase, MYSQL_SERVER_URL } from './mysql-databases';
import { S3TestServer, startS3Server } from './s3-server';

export const DB_TYPE = (process.env.DB_TYPE ?? 'sqlite') as 'sqlite' | 'mysql';
export { MYSQL_SERVER_URL };
/** TEST_MEDIA_STORE=s3 runs the apps of a spec with media in a bucket of a real s3rver. */
export const TEST_MEDIA_STORE = (process.env.TEST_MEDIA_STORE ?? 'local') as 'local' | 's3';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  dataSource: DataSource;
  dataDir: string;
  /** The S3 server holding this app's media (TEST_MEDIA_STORE=s3 or MEDIA_STORE=s3 given). */
  s3?: S3TestServer;
  /** A supertest instance against the app's server. */
  http(): ReturnType<typeof request>;
  get<T>(type: Type<T> | Abstract<T> | string | symbol): T;
  /** Deletes every row of every table (the schema stays). */
  reset(): Promise<void>;
  /** Stops the app and starts it again on the same database and data folder (`env` added). */
  restart(env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/**
 * The environment every test instance of kb starts with: its data folder, the test's database
 * type, a bootstrap administrator, fast password hashing, no logs, and limits no spec reaches by
 * accident. `env` adds to it and wins.
 */
export function testEnv(
  dataDir: string,
  env: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    KB_DATA_DIR: dataDir,
    DB_TYPE,
    KB_ADMIN_USERNAME: 'bootstrap',
    KB_ADMIN_PASSWORD: 'bootstrap-password',
    PASSWORD_HASH_COST: 'fast',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    AUTH_CACHE_SECONDS: '0',
    REVIEW_CHECK_INTERVAL_SECONDS: '0',
    // Generous limits so that no spec is throttled by accident; the rate-limit spec sets its own
    // (the defaults are the issue's, checked in rate-limit-policy.spec.ts).
    RATE_LIMIT_READ: '1000000/60s',
    RATE_LIMIT_WRITE: '1000000/60s',
    RATE_LIMIT_SEARCH: '1000000/60s',
    RATE_LIMIT_IMPORT: '1000000/60s',
    ...env,
  };
}

/**
 * Boots the real application through createApp() on a fresh database (SQLite file in a temp
 * folder, or a new MariaDB database), with migrations run as at start.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kb-test-'));
  // Each test file gets a database of its own (see mysql-databases.ts for its clean-up).
  const mysql = DB_TYPE === 'mysql' ? await createTestDatabase() : undefined;
  const s3 =
    (env.MEDIA_STORE ?? TEST_MEDIA_STORE) === 's3' && !env.S3_ENDPOINT
      ? await startS3Server()
      : undefined;
  const baseEnv = testEnv(dataDir, { DATABASE_URL: mysql?.url, ...s3?.env, ...env });
  let config = loadConfig(baseEnv);
  let app = await createApp(config);
  return {
    get app() {
      return app;
    },
    get config() {
      return config;
    },
    get dataSource() {
      return app.get(DataSource);
    },
    dataDir,
    s3,
    http: () => request(app.getHttpServer()),
    get: <T>(type: Type<T> | Abstract<T> | string | symbol) =>
      app.get<T>(type as Type<T>, { strict: false }),
    reset: () => resetDatabase(app.get(DataSource)),
    restart: async (more: Record<string, string> = {}) => {
      await app.close();
      config = loadConfig({ ...baseEnv, ...more });
      app = await createApp(config);
    },
    close: async () => {
      await app.close();
      await mysql?.drop();
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second instance of kb on the same database, data folder and media store as `t` (its own
 * process state: caches, timers), as a second server behind a load balancer would be.
 */
export async function createPeerApp(
  t: TestApp,
  overrides: Partial<AppConfig> = {},
): Promise<TestApp> {
  const config = { ...t.config, ...overrides };
  const app = await createApp(config);
  const server = app.getHttpServer();
  return {
    ...t,
    app,
    config,
    dataSource: app.get(DataSource),
    http: () => request(server),
    get: <T>(type: Type<T> | Abstract<T> | string | symbol) =>
      app.get<T>(type as Type<T>, { strict: false }),
    close: () => app.close(),
  };
}

/**
 * Tables a reset keeps: the migrations' record and the one-row counters migrations seed
 * (kb only ever counts them up, so a deleted row would make every later bump a no-op). The
 * reset counts them up once itself, as any change of what they guard does: caches keyed by
 * them (credentials, site variables) then forget what the deleted rows held.
 */
const KEPT_TABLES = ['kb_migrations', 'auth_generation', 'site_variable_state'];
const BUMP_COUNTERS = [
  'UPDATE auth_generation SET generation = generation + 1 WHERE id = 1',
  'UPDATE site_variable_state SET version = version + 1 WHERE id = 1',
];

export async function resetDatabase(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type === 'mysql') {
    const rows: { name: string }[] = await dataSource.query(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' AND table_name NOT IN (${KEPT_TABLES.map((n) => `'${n}'`).join(', ')})`,
    );
    // The app's own background work (the webhook dispatcher, sweepers, the previous test's
    // after-commit work) can hold rows the DELETEs want: InnoDB then picks one side as the
    // deadlock victim, and a reset that lost simply runs again.
    for (let attempt = 1; ; attempt++) {
      try {
        await dataSource.transaction(async (manager) => {
          await manager.query('SET FOREIGN_KEY_CHECKS = 0');
          for (const { name } of rows) await manager.query(`DELETE FROM \`${name}\``);
          for (const bump of BUMP_COUNTERS) await manager.query(bump);
          await manager.query('SET FOREIGN_KEY_CHECKS = 1');
        });
        return;
      } catch (error) {
        const errno = (error as { driverError?: { errno?: number } }).driverError?.errno;
        if (attempt >= 5 || (errno !== 1213 && errno !== 1205)) throw error;
      }
    }
  }
  // search_generation keeps its one row (the triggers count the deletions below up in it).
  const tables: { name: string; sql: string | null }[] = await dataSource.query(
    `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (${[...KEPT_TABLES, 'search_generation'].map((n) => `'${n}'`).join(', ')})`,
  );
  // FTS5 shadow tables (<virtual>_data, _idx, ...) are maintained through their virtual table.
  const virtual = tables
    .filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? ''))
    .map((t) => t.name);
  const plain = tables.filter((t) => !virtual.some((v) => t.name.startsWith(`${v}_`)));
  await dataSource.query('PRAGMA foreign_keys = OFF');
  try {
    for (const { name } of plain) await dataSource.query(`DELETE FROM "${name}"`);
    for (const bump of BUMP_COUNTERS) await dataSource.query(bump);
  } finally {
    await dataSource.query('PRAGMA foreign_keys = ON');
  }
}
