import { randomBytes } from 'node:crypto';
import { Connection, createConnection, RowDataPacket } from 'mysql2/promise';

/**
 * MariaDB databases for tests, on a server several test runs share at once (other branches,
 * CI). Each database is guarded by a named lock (GET_LOCK) that a connection of the process
 * using it holds for as long as it lives; the server releases it the moment that connection
 * ends, also when the process crashes or is killed. A clean-up therefore drops exactly the
 * databases whose lock nobody holds: their creator is provably gone. Databases named in any
 * other way (another run's older naming) are never touched.
 */

/** Server URL without a database (MYSQL_TEST_URL, else the local MariaDB as root). */
export const MYSQL_SERVER_URL = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306';

const PREFIX = 'kbtest_';
const NAME = /^kbtest_[0-9a-f]{16}$/;

/** MYSQL_TEST_URL with its path replaced by `database` ('' for the server itself). */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const lockOf = (name: string) => `kb-test-database:${name}`;

async function takeLock(connection: Connection, name: string): Promise<boolean> {
  const [rows] = await connection.query<RowDataPacket[]>('SELECT GET_LOCK(?, 0) AS got', [
    lockOf(name),
  ]);
  return Number(rows[0].got) === 1;
}

export interface TestDatabase {
  name: string;
  /** The server URL with this database. */
  url: string;
  /** Creates the (reserved) database. */
  create(): Promise<void>;
  /** Drops the database and lets go of its lock. */
  drop(): Promise<void>;
}

/**
 * A database name of this process's, locked but not created: for a test whose kb creates it
 * (DB_CREATE=true) or is told that it is missing. drop() drops it if it came to exist.
 */
export async function reserveTestDatabase(serverUrl = MYSQL_SERVER_URL): Promise<TestDatabase> {
  const holder = await createConnection(databaseUrl(serverUrl, ''));
  // The holder may lose its server (a test stopping a private mariadbd): never crash on that.
  holder.on('error', () => undefined);
  let name = '';
  do name = PREFIX + randomBytes(8).toString('hex');
  while (!(await takeLock(holder, name)));
  return {
    name,
    url: databaseUrl(serverUrl, name),
    create: async () => {
      await holder.query(
        `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
      );
    },
    drop: async () => {
      try {
        await holder.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await holder.query('SELECT RELEASE_LOCK(?)', [lockOf(name)]);
      } finally {
        await holder.end().catch(() => undefined);
      }
    },
  };
}

/** A new, empty utf8mb4 database that stays this process's until drop() or its end. */
export async function createTestDatabase(serverUrl = MYSQL_SERVER_URL): Promise<TestDatabase> {
  const database = await reserveTestDatabase(serverUrl);
  try {
    await database.create();
  } catch (error) {
    await database.drop();
    throw error;
  }
  return database;
}

/**
 * Drops the test databases on the server whose creating process is gone (their lock is free):
 * leftovers of a crashed or killed run. Live runs' databases keep their locks and stay.
 */
export async function dropLeftoverDatabases(serverUrl = MYSQL_SERVER_URL): Promise<string[]> {
  const connection = await createConnection(databaseUrl(serverUrl, ''));
  const dropped: string[] = [];
  try {
    const [rows] = await connection.query<RowDataPacket[]>(
      `SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE 'kbtest\\_%'`,
    );
    for (const { name } of rows as { name: string }[]) {
      if (!NAME.test(name) || !(await takeLock(connection, name))) continue;
      try {
        await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
        dropped.push(name);
      } finally {
        await connection.query('SELECT RELEASE_LOCK(?)', [lockOf(name)]);
      }
    }
  } finally {
    await connection.end();
  }
  return dropped;
}
