import type { Worker } from 'node:worker_threads';
import type { PoolStats } from '../database/database';
import { startWorker } from './worker-entry';

/** A request as the pool posts it to a worker. */
export interface WorkerRequest<Q> {
  id: number;
  request: Q;
}

/** What a worker posts back: ready once it has loaded, then one reply per request. */
export type WorkerReply<R> =
  | { ready: true }
  | { id: number; result: R }
  | { id: number; error: { message: string; name: string; code?: string } };

interface Pending {
  resolve: (value: never) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  /** It has loaded its modules (and opened what it needs) and said so. */
  ready: boolean;
}

/**
 * Worker threads answering requests of one kind (the SQLite read pool's queries, Markdown
 * renders), so work that takes milliseconds never holds the event loop. The worker module
 * answers with `serveRequests`. A request goes to the ready worker with the least work in
 * hand; a worker answers one at a time, the others wait in its message queue. A worker that
 * dies fails its pending requests and is replaced. Until a worker is ready (it loads its
 * modules first) `ready` is false and callers do the work themselves.
 */
export class WorkerPool<Q, R> {
  private readonly workers: PoolWorker[] = [];
  private nextId = 1;
  private closed = false;
  /** Requests answered so far (success or error). */
  served = 0;

  /**
   * `entry`: the worker module (.js, or .ts under the tests); `name`: the pool in /metrics.
   * `lazy`: the workers start with the first `run` instead of now (a pool most processes
   * never need costs them no memory).
   */
  constructor(
    private readonly entry: string,
    private readonly workerData: unknown,
    private readonly size: number,
    readonly name: string,
    lazy = false,
  ) {
    if (!lazy) this.start();
  }

  /** Whether a worker can take a request now. */
  get ready(): boolean {
    return !this.closed && this.workers.some((w) => w.ready);
  }

  /** Starts the workers if they are not running yet (a lazy pool; once). */
  start(): void {
    if (this.closed || this.workers.length > 0) return;
    for (let i = 0; i < this.size; i++) this.workers.push(this.spawn());
  }

  /** Runs `request` on the ready worker with the least in hand (callers check `ready`). */
  run(request: Q): Promise<R> {
    const ready = this.workers.filter((w) => w.ready);
    if (this.closed || ready.length === 0)
      return Promise.reject(new Error(`The ${this.name} pool has no worker ready`));
    const target = ready.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      target.pending.set(id, { resolve: resolve as (value: never) => void, reject });
      target.worker.postMessage({ id, request } satisfies WorkerRequest<Q>);
    });
  }

  stats(): PoolStats {
    let inHand = 0;
    let active = 0;
    for (const { pending } of this.workers) {
      inHand += pending.size;
      if (pending.size > 0) active++;
    }
    return { pool: this.name, active, waiting: inHand - active };
  }

  /**
   * Stops taking requests, lets the ones in hand finish (a request whose client hung up during
   * shutdown still awaits its answer), up to `graceMs`, then ends the workers.
   */
  async close(graceMs = 5_000): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + graceMs;
    while (this.workers.some((w) => w.pending.size > 0) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }

  private spawn(): PoolWorker {
    const worker = startWorker(this.entry, { workerData: this.workerData });
    const entry: PoolWorker = { worker, pending: new Map(), ready: false };
    // Idle workers never keep the process alive; the server (or the caller awaiting) does.
    worker.unref();
    worker.on('message', (reply: WorkerReply<R>) => {
      if ('ready' in reply) {
        entry.ready = true;
        return;
      }
      const pending = entry.pending.get(reply.id);
      if (!pending) return;
      entry.pending.delete(reply.id);
      this.served++;
      if ('error' in reply)
        pending.reject(Object.assign(new Error(reply.error.message), reply.error));
      else pending.resolve(reply.result as never);
    });
    const fail = (error: Error) => {
      entry.ready = false;
      for (const pending of entry.pending.values()) pending.reject(error);
      entry.pending.clear();
      if (this.closed) return;
      const index = this.workers.indexOf(entry);
      if (index >= 0) this.workers[index] = this.spawn();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`A ${this.name} worker exited (code ${code})`)));
    return entry;
  }
}
