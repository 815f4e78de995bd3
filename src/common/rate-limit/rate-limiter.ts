import { Logger } from '@nestjs/common';
import type { CounterStore } from './counter-stores';

interface Counter {
  /** The total the shared store answered last (every instance's hits). */
  shared: number;
  /** This instance's hits being added to the store right now. */
  flushing: number;
  /** This instance's hits not yet added. */
  pending: number;
  expiresAt: number;
  /** The first read of the shared total (a request waits for it once per window). */
  loaded: Promise<void>;
}

/**
 * Per-key request counts shared by every instance through a CounterStore. A request never
 * waits for a write: this instance counts in memory and adds its hits to the store every
 * RATE_LIMIT_SYNC_MS (reading the others' at the same time); only the first request of a window
 * reads the shared total. On SQLite that keeps counting off the single writer's queue, so a
 * long import does not hold reads up. Across instances the count may lag by one sync interval.
 */
export class RateLimiter {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly counters = new Map<string, Counter>();
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;
  private lastPurge = 0;

  constructor(
    private readonly store: CounterStore,
    private readonly syncMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sync(), this.syncMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.syncing;
    await this.sync();
    await this.store.close();
  }

  /** Counts one request against `key` (a window ending at `expiresAt`); answers the count. */
  async hit(key: string, expiresAt: number): Promise<number> {
    let counter = this.counters.get(key);
    if (!counter) {
      const created: Counter = {
        shared: 0,
        flushing: 0,
        pending: 0,
        expiresAt,
        loaded: Promise.resolve(),
      };
      created.loaded = this.store.read(key).then(
        (total) => void (created.shared = Math.max(created.shared, total)),
        (error: unknown) => this.failed('read', error),
      );
      this.counters.set(key, created);
      counter = created;
    }
    counter.pending++;
    await counter.loaded;
    return counter.shared + counter.flushing + counter.pending;
  }

  /** Adds pending hits to the store and refreshes the shared totals of live counters. */
  sync(): Promise<void> {
    if (this.syncing) return this.syncing;
    this.syncing = this.syncAll().finally(() => (this.syncing = null));
    return this.syncing;
  }

  private async syncAll(): Promise<void> {
    const now = Date.now();
    for (const [key, counter] of this.counters) {
      if (counter.expiresAt <= now && counter.pending === 0) {
        this.counters.delete(key);
        continue;
      }
      const hits = counter.pending;
      counter.pending = 0;
      counter.flushing = hits;
      try {
        counter.shared =
          hits > 0
            ? await this.store.add(key, hits, new Date(counter.expiresAt))
            : await this.store.read(key);
      } catch (error) {
        counter.pending += hits;
        this.failed('sync', error);
      } finally {
        counter.flushing = 0;
      }
    }
    if (now - this.lastPurge > 60_000) {
      this.lastPurge = now;
      await this.store.purge(new Date(now)).catch((error: unknown) => this.failed('purge', error));
    }
  }

  private failed(step: string, error: unknown): void {
    this.logger.warn({
      msg: `rate-limit counters: ${step} failed`,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
