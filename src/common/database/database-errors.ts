import { setTimeout as sleep } from 'node:timers/promises';
import { Problem } from '../problems/problem';

/** What a driver error carries (mysql2 directly, or TypeORM's QueryFailedError copying it). */
interface DriverError {
  code?: unknown;
  errno?: unknown;
  sqlState?: unknown;
  message?: unknown;
  driverError?: DriverError;
}

/** MySQL/MariaDB: deadlock (1213) and lock wait timeout (1205); SQLSTATE 40001 anywhere. */
const RETRYABLE_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'SQLITE_BUSY']);
const RETRYABLE_ERRNOS = new Set([1213, 1205]);

/** The server is gone, refuses, or the connection to it broke. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
]);
const UNREACHABLE_MESSAGES = [
  /^Pool is closed/i,
  /connection is not open/i,
  /Connection is not established/i,
  /Connection lost/i,
  /Can't add new command when connection is in closed state/i,
];

function details(error: unknown): DriverError[] {
  const found: DriverError[] = [];
  let current = error as DriverError | undefined;
  while (current && typeof current === 'object' && found.length < 3) {
    found.push(current);
    current = current.driverError;
  }
  return found;
}

/** A transaction that lost a deadlock or a serialization check: running it again may succeed. */
export function isRetryableTransactionError(error: unknown): boolean {
  return details(error).some(
    (e) =>
      RETRYABLE_CODES.has(String(e.code)) ||
      // better-sqlite3 reports extended codes: SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_RECOVERY…
      String(e.code).startsWith('SQLITE_BUSY') ||
      RETRYABLE_ERRNOS.has(Number(e.errno)) ||
      e.sqlState === '40001',
  );
}

/** The database cannot be reached at all (down, refusing, connection lost, closed). */
export function isDatabaseUnreachable(error: unknown): boolean {
  return details(error).some(
    (e) =>
      UNREACHABLE_CODES.has(String(e.code)) ||
      (typeof e.message === 'string' &&
        UNREACHABLE_MESSAGES.some((m) => m.test(e.message as string))),
  );
}

/** 503 `database_unavailable`, as /readyz answers it. */
export function databaseUnavailable(): Problem {
  return new Problem(
    503,
    'database_unavailable',
    'The database does not answer; try again shortly.',
    {},
    { 'Retry-After': '5' },
  );
}

/** 503 `database_busy`: conflicting transactions still collided after the retries. */
export function databaseBusy(): Problem {
  return new Problem(
    503,
    'database_busy',
    'The database is busy; try again shortly.',
    {},
    { 'Retry-After': '1' },
  );
}

/** The problem a database error answers with, or undefined when it is not one of these. */
export function databaseProblem(error: unknown): Problem | undefined {
  if (isDatabaseUnreachable(error)) return databaseUnavailable();
  if (isRetryableTransactionError(error)) return databaseBusy();
  return undefined;
}

/** How often a deadlocked or serialization-failed transaction runs in all. */
export const TRANSACTION_ATTEMPTS = 4;

/**
 * THE retry of kb's transactions (both Database providers run every transaction and
 * standalone write through it): `attempt` runs again, after a short randomised backoff, while
 * it fails with a deadlock or a serialization failure, at most TRANSACTION_ATTEMPTS times;
 * then 503 `database_busy` with Retry-After. Work functions re-read what they check inside
 * the transaction and do their side effects after it, so they may run again.
 */
export async function withTransactionRetry<T>(attempt: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isRetryableTransactionError(error)) throw error;
      if (round >= TRANSACTION_ATTEMPTS) throw databaseBusy();
      await sleep(10 * 2 ** round + Math.floor(Math.random() * 20));
    }
  }
}
