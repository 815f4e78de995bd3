import type { Worker } from 'node:cluster';
import type { CounterStore } from '../rate-limit/counter-stores';
import { RateLimiter } from '../rate-limit/rate-limiter';
import type { ClusterMessage } from './cluster-messages';

type StoreAnswer = Extract<ClusterMessage, { kb: 'rate-store-answer' }>;

/** How long a worker has to answer a counter-store question (a database read or write). */
const STORE_ANSWER_MS = 5000;

/**
 * The shared store seen from the primary, which has no database of its own: each call is
 * run by one of the live workers (serveRateStore in cluster-worker.ts).
 */
export class WorkerCounterStore implements CounterStore {
  private nextId = 0;
  private turn = 0;
  private readonly pending = new Map<
    number,
    { worker: Worker; resolve: (answer: StoreAnswer) => void }
  >();

  constructor(private readonly workers: () => Worker[]) {}

  answered(answer: StoreAnswer): void {
    const asked = this.pending.get(answer.id);
    this.pending.delete(answer.id);
    asked?.resolve(answer);
  }

  /** A worker that exited will not answer: its questions fail (the limiter retries them). */
  forget(worker: Worker): void {
    for (const [id, asked] of this.pending) {
      if (asked.worker !== worker) continue;
      this.pending.delete(id);
      asked.resolve({ kb: 'rate-store-answer', id, error: 'the worker exited' });
    }
  }

  add(key: string, hits: number, expiresAt: Date): Promise<number> {
    return this.ask('add', key, hits, expiresAt.getTime());
  }

  read(key: string): Promise<number> {
    return this.ask('read', key, 0, 0);
  }

  async purge(now: Date): Promise<void> {
    await this.ask('purge', '', 0, now.getTime());
  }

  async close(): Promise<void> {}

  private async ask(op: 'add' | 'read' | 'purge', key: string, hits: number, at: number) {
    const live = this.workers().filter((worker) => worker.isConnected());
    if (live.length === 0) throw new Error('no worker to reach the counter store');
    const worker = live[this.turn++ % live.length];
    const id = ++this.nextId;
    const answer = await new Promise<StoreAnswer>((resolve) => {
      // A worker that never answers (stuck, or gone without an exit yet) must not hold every
      // request of the key waiting: the question fails and the limiter goes on without it.
      const timer = setTimeout(
        () => this.answered({ kb: 'rate-store-answer', id, error: 'no answer in time' }),
        STORE_ANSWER_MS,
      );
      this.pending.set(id, {
        worker,
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
      });
      // Not delivered (the worker is exiting): the question fails now, not at the timeout.
      worker.send({ kb: 'rate-store', id, op, key, hits, at } satisfies ClusterMessage, (error) => {
        if (error) this.answered({ kb: 'rate-store-answer', id, error: error.message });
      });
    });
    if (answer.error !== undefined || answer.total === undefined)
      throw new Error(answer.error ?? 'no answer');
    return answer.total;
  }
}

/**
 * KB_WORKERS > 1: the request counters of the whole instance, kept in the primary so that a
 * caller's quota does not multiply by the number of workers. The workers ask here for every
 * counted request (rate-hit); the counters reach the shared store, and so the other instances,
 * every RATE_LIMIT_SYNC_MS as a single process's do (RateLimiter).
 */
export class ClusterRateLimits {
  private readonly store: WorkerCounterStore;
  private limiter: RateLimiter | null = null;

  constructor(workers: () => Worker[]) {
    this.store = new WorkerCounterStore(workers);
  }

  hit(worker: Worker, message: Extract<ClusterMessage, { kb: 'rate-hit' }>): void {
    if (!this.limiter) {
      this.limiter = new RateLimiter(this.store, message.syncMs);
      this.limiter.start();
    }
    void this.limiter.hit(message.key, message.expiresAt).then((count) => {
      if (worker.isConnected())
        worker.send({ kb: 'rate-count', id: message.id, count } satisfies ClusterMessage);
    });
  }

  answered(message: StoreAnswer): void {
    this.store.answered(message);
  }

  /** A worker exited: the store questions it had fail (their hits are added at the next sync). */
  workerExited(worker: Worker): void {
    this.store.forget(worker);
  }
}
