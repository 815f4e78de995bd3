import { createConnection } from 'mysql2/promise';
import type { AppConfig } from '../config/app-config';

/** A database problem retrying cannot fix: start-up stops with this message (exit 78). */
export class DatabaseSetupError extends Error {}

/** MySQL's "unknown database" error, and its "access denied" ones (1698: MariaDB's). */
const UNKNOWN_DATABASE = 1049;
const ACCESS_DENIED = new Set([1044, 1045, 1698]);

const CHARSET = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';

function quoteName(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

/** `mysql://user@host:port/db` (never the password), for messages and the start line. */
export function describeDatabase(config: AppConfig): string {
  if (config.database.type === 'sqlite') return `sqlite ${config.database.sqlitePath}`;
  const url = new URL(config.database.url!);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  return `mysql ${url.protocol}//${user}${url.host}${url.pathname}`;
}

function missingDatabaseMessage(url: URL, name: string): string {
  const user = decodeURIComponent(url.username) || 'root';
  const client = [
    'mysql',
    `-h ${url.hostname}`,
    `-P ${url.port || '3306'}`,
    `-u ${user}`,
    ...(url.password ? ['-p'] : []),
  ].join(' ');
  const statement = `CREATE DATABASE ${quoteName(name)} ${CHARSET}`;
  return [
    `kb: the MySQL database "${name}" does not exist on ${url.host}. Create it, then start kb again:`,
    '',
    `  ${statement};`,
    '',
    `for example with: ${client} -e '${statement.replace(/'/g, `'\\''`)}'`,
    'or start kb with DB_CREATE=true to let it create the database.',
  ].join('\n');
}

/**
 * Before the app connects (and TypeORM would retry for half a minute): on MySQL, a database
 * that does not exist is created with DB_CREATE=true ('created'), else start-up stops with the
 * `CREATE DATABASE` line to run; refused credentials stop it too. An unreachable server is
 * left to the connection's own retries (it may still be starting).
 */
export async function prepareDatabase(config: AppConfig): Promise<'ready' | 'created'> {
  if (config.database.type !== 'mysql') return 'ready';
  const url = new URL(config.database.url!);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (name === '' || name.includes('/'))
    throw new DatabaseSetupError(
      `kb: DATABASE_URL must name one database, as in mysql://user:pass@${url.host}/kb`,
    );
  try {
    await (await createConnection(config.database.url!)).end();
    return 'ready';
  } catch (error) {
    const code = (error as { errno?: number }).errno;
    if (code !== undefined && ACCESS_DENIED.has(code))
      throw new DatabaseSetupError(
        `kb: MySQL at ${url.host} refused the credentials of DATABASE_URL for the database "${name}": ${(error as Error).message}`,
      );
    if (code !== UNKNOWN_DATABASE) return 'ready';
  }
  if (!config.database.create) throw new DatabaseSetupError(missingDatabaseMessage(url, name));
  const server = new URL(url);
  server.pathname = '/';
  const connection = await createConnection(server.toString());
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS ${quoteName(name)} ${CHARSET}`);
  } finally {
    await connection.end();
  }
  return 'created';
}
