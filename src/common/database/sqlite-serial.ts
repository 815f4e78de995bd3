import { AsyncLocalStorage } from 'node:async_hooks';
import { EntityManager } from 'typeorm';
import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';
import { Problem } from '../problems/problem';

/**
 * TypeORM's better-sqlite3 driver has ONE connection and ONE query runner for the whole process.
 * Two requests that open transactions at the same time therefore share it: the second fails with
 * "cannot start a transaction within a transaction", or its statements silently join (and roll
 * back with) the first one's transaction; an implicit `save()` transaction does the same.
 *
 * This serialises database writes on SQLite: a transaction (`manager.transaction()`,
 * `dataSource.transaction()`, and the implicit one of `save()`/`remove()`) holds a process-wide
 * lock until it ends, and every writing statement issued outside it waits its turn. Statements
 * issued from inside the transaction's async context run at once (AsyncLocalStorage tells them
 * apart). A lone SELECT never waits: it cannot change what the transaction does, and making
 * every read wait would stall the whole service (and /readyz) for as long as a big import
 * runs; the price is that such a read may see the open transaction's uncommitted rows.
 *
 * Rule for feature code: do the transaction's database work from its callback's async flow
 * (await, for-await), not from event callbacks of a stream opened before the transaction,
 * which run outside its context and would wait for the lock the transaction holds. A write
 * that waits longer than 30 s gives up with 503 `database_busy` rather than hang.
 * MySQL/MariaDB are unaffected: their pool gives each transaction a connection of its own.
 */
/** How long a write waits for a running transaction before it gives up with 503. */
let lockWaitMs = 30_000;

/** For tests: a shorter wait. */
export function setSqliteLockWaitMs(ms: number): void {
  lockWaitMs = ms;
}

class SqliteLock {
  private readonly context = new AsyncLocalStorage<object>();
  private holder: object | null = null;
  private tail: Promise<void> = Promise.resolve();

  /** Runs `work` holding the lock, unless the caller already holds it (nested work). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const current = this.context.getStore();
    if (current !== undefined && current === this.holder) return work();
    const owner = {};
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => released);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), lockWaitMs);
      timer.unref();
    });
    const turn = await Promise.race([previous.then(() => 'turn' as const), gaveUp]);
    clearTimeout(timer);
    if (turn === 'timeout') {
      // Our place in the queue is handed straight on; the caller gets a clean 503 instead of
      // waiting for ever (e.g. a lock cycle with an in-process lock held across a write).
      release();
      throw new Problem(
        503,
        'database_busy',
        'The database is busy; try again shortly.',
        {},
        { 'Retry-After': '5' },
      );
    }
    this.holder = owner;
    try {
      return await this.context.run(owner, work);
    } finally {
      this.holder = null;
      release();
    }
  }
}

const lock = new SqliteLock();
const READ_ONLY = /^\s*SELECT\b/i;
let installed = false;

function isSqlite(manager: EntityManager): boolean {
  return manager.connection.options.type === 'better-sqlite3';
}

type AnyFn = (...args: unknown[]) => Promise<unknown>;

/** Installs the serialisation once per process (idempotent). */
export function installSqliteSerialisation(): void {
  if (installed) return;
  installed = true;

  const query = BetterSqlite3QueryRunner.prototype.query as unknown as AnyFn;
  (BetterSqlite3QueryRunner.prototype as unknown as { query: AnyFn }).query = function (
    this: BetterSqlite3QueryRunner,
    ...args: unknown[]
  ) {
    if (typeof args[0] === 'string' && READ_ONLY.test(args[0])) return query.apply(this, args);
    return lock.run(() => query.apply(this, args));
  };

  const prototype = EntityManager.prototype as unknown as Record<string, AnyFn>;
  for (const method of ['transaction', 'save', 'remove', 'softRemove', 'recover']) {
    const original = prototype[method];
    prototype[method] = function (this: EntityManager, ...args: unknown[]) {
      if (!isSqlite(this)) return original.apply(this, args);
      return lock.run(() => original.apply(this, args));
    };
  }
}
