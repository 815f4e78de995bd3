import { AsyncLocalStorage } from 'node:async_hooks';
import { Problem } from '../problems/problem';

/** How long a write waits for the running one before it gives up with 503 `database_busy`. */
export const DEFAULT_WRITE_WAIT_MS = 30_000;

/**
 * The single writer of a SQLite database. There is one connection per process (TypeORM's
 * better-sqlite3 driver and kb's prepared statements share it), so two requests' transactions
 * must not interleave on it: the second would fail with "cannot start a transaction within a
 * transaction", or its statements would silently join (and roll back with) the first one's.
 * Every transaction and every write outside one takes its turn here, first come first served.
 *
 * Work started from inside a turn's async context runs at once (AsyncLocalStorage tells it
 * apart): a nested transaction becomes a savepoint instead of waiting for itself. Reads never
 * wait: they cannot change what a transaction does, and making them wait would stall the
 * service (and /readyz) for as long as a big import runs; the price is that such a read may
 * see an open transaction's uncommitted rows. A write that waits longer than `waitMs` gives
 * up with 503 `database_busy` rather than hang (e.g. a cycle with an in-process lock).
 *
 * This queue is where group commit goes: the turns waiting at one moment can be applied in
 * one transaction, each inside a savepoint of its own, with one COMMIT for all of them.
 */
export class SqliteWriter {
  private readonly context = new AsyncLocalStorage<object>();
  private holder: object | null = null;
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(public waitMs = DEFAULT_WRITE_WAIT_MS) {}

  /** Whether the caller runs inside a turn (its own or one it was started from). */
  get holding(): boolean {
    const current = this.context.getStore();
    return current !== undefined && current === this.holder;
  }

  /** Turns waiting for the running one (what /metrics reports as the writer's queue). */
  get waiting(): number {
    return this.queued;
  }

  /** Whether a turn is running now. */
  get busy(): boolean {
    return this.holder !== null;
  }

  /** Runs `work` in its turn, unless the caller already holds the turn (nested work). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.holding) return work();
    const owner = {};
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => released);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.waitMs);
      timer.unref();
    });
    this.queued++;
    const turn = await Promise.race([previous.then(() => 'turn' as const), gaveUp]);
    this.queued--;
    clearTimeout(timer);
    if (turn === 'timeout') {
      // The place in the queue is handed straight on; the caller gets a clean 503.
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
