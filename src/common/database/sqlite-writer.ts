import { AsyncLocalStorage } from 'node:async_hooks';
import { Problem } from '../problems/problem';

/** How long a write waits for the running one before it gives up with 503 `database_busy`. */
export const DEFAULT_WRITE_WAIT_MS = 30_000;

/** The most turns committed together in one transaction. */
export const MAX_GROUP = 64;

/**
 * The transaction a group of turns shares (SqliteDatabase gives TypeORM's query runner, so a
 * turn's own `transaction()` inside the group becomes a SAVEPOINT of it).
 */
export interface WriteGroup {
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Whether the group's transaction is still open (an I/O error or a full disk ends it). */
  open(): boolean;
}

/** The permission to write across processes (KB_WORKERS > 1); `acquire` resolves with its release. */
export interface WriteLock {
  acquire(): Promise<() => void>;
  /** The holder is making progress (see `SqliteWriter.heartbeat`): tell the other processes. */
  progress?(): void;
  /** Calls `listener` when another process's holder reports progress. */
  onProgress?(listener: () => void): void;
  /**
   * Acquiring waits for another process (a message round trip), so turns queue up meanwhile
   * and form groups by themselves: the writer starts its drain at once instead of deferring it.
   */
  readonly crossProcess?: boolean;
}

interface Turn {
  owner: object;
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * The single writer of a SQLite database. There is one connection per process (TypeORM's
 * better-sqlite3 driver and kb's prepared statements share it), so two requests' transactions
 * must not interleave on it: the second would fail with "cannot start a transaction within a
 * transaction", or its statements would silently join (and roll back with) the first one's.
 * Every transaction and every write outside one takes its turn here, first come first served.
 *
 * Group commit: the turns that queued up while one ran are applied together, in order, in one
 * transaction (`WriteGroup`), with one COMMIT for all. Each turn is still all-or-nothing with
 * its own checks: SqliteDatabase runs it inside a SAVEPOINT, so a turn that fails rolls back
 * only its savepoint and gets its own error while its neighbours go on; a later turn sees an
 * earlier one's rows (the same connection), so a precondition (If-Match, a unique slug) still
 * has exactly one winner. A turn's promise settles only after the COMMIT, so nothing it
 * reports (an answer, an event) precedes durability. When the group's transaction itself fails
 * (COMMIT, or an error that ended it), the turns that had succeeded run again one by one.
 *
 * Work started from inside a turn's async context runs at once (AsyncLocalStorage tells it
 * apart): a nested transaction becomes a savepoint instead of waiting for itself. Reads never
 * wait: they cannot change what a transaction does, and making them wait would stall the
 * service (and /readyz) for as long as a big import runs; the price is that such a read may
 * see an open transaction's uncommitted rows. A write that waits longer than `waitMs` without
 * the running turn reporting progress (`heartbeat`) gives up with 503 `database_busy` rather
 * than hang (e.g. a cycle with an in-process lock).
 */
export class SqliteWriter {
  private readonly context = new AsyncLocalStorage<object>();
  private holder: object | null = null;
  private readonly queue: Turn[] = [];
  private draining = false;
  private scheduled = false;
  private inGroup = false;
  /** Turns committed in groups of more than one, and groups (for /metrics and tests). */
  groupedTurns = 0;
  groups = 0;

  constructor(
    public waitMs = DEFAULT_WRITE_WAIT_MS,
    private readonly group?: WriteGroup,
    private readonly lock?: WriteLock,
    private readonly maxGroup = MAX_GROUP,
  ) {
    // Another process's long turn (an import) keeps the writes waiting here for the lock.
    lock?.onProgress?.(() => this.refreshWaiting());
  }

  /** Whether the caller runs inside a turn (its own or one it was started from). */
  get holding(): boolean {
    const current = this.context.getStore();
    return current !== undefined && current === this.holder;
  }

  /** Whether the running turn is one of a group (its work must be a savepoint of its own). */
  get grouped(): boolean {
    return this.inGroup && this.holding;
  }

  /** Turns waiting for the running one (what /metrics reports as the writer's queue). */
  get waiting(): number {
    return this.queue.length;
  }

  /** Whether a turn is running now. */
  get busy(): boolean {
    return this.holder !== null;
  }

  /**
   * The running turn is making progress (a big import between two pages): the turns waiting
   * behind it start their `waitMs` again, since the limit is there for a writer that is stuck,
   * not for one that is long. Only the holder's calls count.
   */
  heartbeat(): void {
    if (!this.holding) return;
    this.refreshWaiting();
    this.lock?.progress?.();
  }

  private refreshWaiting(): void {
    for (const turn of this.queue) turn.timer.refresh();
  }

  /** Runs `work` in its turn, unless the caller already holds the turn (nested work). */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.holding) return work();
    return new Promise<T>((resolve, reject) => {
      const turn: Turn = {
        owner: {},
        work,
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: setTimeout(() => this.giveUp(turn), this.waitMs),
      };
      turn.timer.unref();
      this.queue.push(turn);
      this.schedule();
    });
  }

  /**
   * Starts the drain after the current I/O phase rather than at once. better-sqlite3 is
   * synchronous, so a turn started at once would run to its COMMIT in microtasks before the
   * next request's callback: every turn ran alone, with a COMMIT (and an FTS5 segment flush)
   * each. Deferred by one setImmediate, the turns of every request read in the same poll
   * phase queue up first and commit together as one group. Not with a cross-process lock,
   * whose acquisition already lets turns queue.
   */
  private schedule(): void {
    if (this.draining || this.scheduled) return;
    // Measured with 2 cluster workers: deferring there too halved the update rate.
    if (this.lock?.crossProcess) {
      void this.drain();
      return;
    }
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private giveUp(turn: Turn): void {
    const at = this.queue.indexOf(turn);
    if (at < 0) return;
    // The place in the queue is handed straight on; the caller gets a clean 503.
    this.queue.splice(at, 1);
    turn.reject(
      new Problem(
        503,
        'database_busy',
        'The database is busy; try again shortly.',
        {},
        { 'Retry-After': '5' },
      ),
    );
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const release = this.lock ? await this.lock.acquire() : undefined;
        try {
          const batch = this.queue.splice(0, this.group ? this.maxGroup : 1);
          for (const turn of batch) clearTimeout(turn.timer);
          if (batch.length === 1 || !this.group) await this.runAlone(batch[0]);
          else await this.runGroup(batch, this.group);
        } finally {
          release?.();
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async attempt(turn: Turn): Promise<Outcome> {
    this.holder = turn.owner;
    try {
      return { ok: true, value: await this.context.run(turn.owner, turn.work) };
    } catch (error) {
      return { ok: false, error };
    } finally {
      this.holder = null;
    }
  }

  private async runAlone(turn: Turn): Promise<void> {
    const outcome = await this.attempt(turn);
    if (outcome.ok) turn.resolve(outcome.value);
    else turn.reject(outcome.error);
  }

  private async runGroup(batch: Turn[], group: WriteGroup): Promise<void> {
    try {
      await group.begin();
    } catch {
      for (const turn of batch) await this.runAlone(turn);
      return;
    }
    const outcomes: Outcome[] = [];
    let broken = false;
    this.inGroup = true;
    try {
      for (const turn of batch) {
        outcomes.push(await this.attempt(turn));
        if (!group.open()) {
          broken = true;
          break;
        }
      }
    } finally {
      this.inGroup = false;
    }
    if (!broken) {
      try {
        await group.commit();
      } catch {
        broken = true;
        if (group.open()) await group.rollback().catch(() => undefined);
      }
    }
    if (broken) {
      // Nothing of the group is in the database: every turn runs again on its own and
      // answers for itself (the ones that had failed fail again, as they should).
      for (const turn of batch) await this.runAlone(turn);
      return;
    }
    this.groups++;
    this.groupedTurns += batch.length;
    batch.forEach((turn, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) turn.resolve(outcome.value);
      else turn.reject(outcome.error);
    });
  }
}
