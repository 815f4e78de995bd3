import type { Worker } from 'node:worker_threads';
import type { PoolStats } from './database';
import type { AnyReadQuery } from './sql';
import { startWorker } from './worker-entry';

export interface ReadWorkerData {
  /** The SQLite file, opened read-only. */
  file: string;
  /** Modules exporting `READ_QUERIES` (a Map of ReadQuery by name), required by each worker. */
  registries: string[];
}

export interface ReadRequest {
  id: number;
  name: string;
  args: unknown[];
}

export type ReadReply =
  | { ready: true }
  | { id: number; result: unknown }
  | { id: number; error: { message: string; name: string; code?: string } };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  /** It has opened its connection and loaded the registries. */
  ready: boolean;
}

const WORKER_ENTRY = `${__dirname}/sqlite-read-worker${__filename.slice(__filename.lastIndexOf('.'))}`;

/**
 * Worker threads running ReadQueries on read-only connections of their own, so reads over many
 * rows (search, lists, graph, archive batches) never hold the event loop. A query goes to the
 * worker with the least work in hand; a worker answers one at a time, the others wait in its
 * message queue. A worker that dies fails its pending reads and is replaced. Until a worker
 * is ready (it loads its modules first), `ready` is false and reads run on the main thread.
 */
export class SqliteReadPool {
  private readonly workers: PoolWorker[] = [];
  private nextId = 1;
  private closed = false;
  /** Reads answered so far (success or error). */
  served = 0;

  constructor(
    private readonly data: ReadWorkerData,
    size: number,
  ) {
    for (let i = 0; i < size; i++) this.workers.push(this.spawn());
  }

  /** Whether a worker can take a read now. */
  get ready(): boolean {
    return !this.closed && this.workers.some((w) => w.ready);
  }

  /** Runs `query` on the ready worker with the least in hand (callers check `ready`). */
  run(query: AnyReadQuery, args: unknown[]): Promise<unknown> {
    const ready = this.workers.filter((w) => w.ready);
    if (this.closed || ready.length === 0)
      return Promise.reject(new Error('The read pool has no worker ready'));
    const target = ready.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      target.pending.set(id, { resolve, reject });
      target.worker.postMessage({ id, name: query.name, args } satisfies ReadRequest);
    });
  }

  stats(): PoolStats {
    let inHand = 0;
    let active = 0;
    for (const { pending } of this.workers) {
      inHand += pending.size;
      if (pending.size > 0) active++;
    }
    return { pool: 'sqlite_readers', active, waiting: inHand - active };
  }

  /**
   * Stops taking reads, lets the reads in hand finish (a request whose client hung up during
   * shutdown still awaits its query), up to `graceMs`, then ends the workers.
   */
  async close(graceMs = 5_000): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + graceMs;
    while (this.workers.some((w) => w.pending.size > 0) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
  }

  private spawn(): PoolWorker {
    const worker = startWorker(WORKER_ENTRY, { workerData: this.data });
    const entry: PoolWorker = { worker, pending: new Map(), ready: false };
    // Idle workers never keep the process alive; the server (or the caller awaiting) does.
    worker.unref();
    worker.on('message', (reply: ReadReply) => {
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
      else pending.resolve(reply.result);
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
    worker.on('exit', (code) => fail(new Error(`A read worker exited (code ${code})`)));
    return entry;
  }
}
