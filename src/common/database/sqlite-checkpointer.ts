import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workers/worker-entry';

export interface CheckpointWorkerData {
  /** The SQLite file (WAL mode). */
  file: string;
  /** Time between two passive checkpoints. */
  intervalMs: number;
}

/** How often the worker checkpoints: the WAL grows by at most what one second writes. */
export const CHECKPOINT_INTERVAL_MS = 1_000;

const WORKER_ENTRY = `${__dirname}/sqlite-checkpoint-worker${__filename.slice(__filename.lastIndexOf('.'))}`;

/** The part of the main connection the checkpointer switches. */
export interface CheckpointedConnection {
  pragma(sql: string): unknown;
  /** better-sqlite3: false once closed. */
  readonly open?: boolean;
}

/**
 * WAL checkpoints off the main thread. SQLite's automatic checkpoint runs inside the COMMIT
 * that crosses `wal_autocheckpoint` pages, on the committing connection: after a 10,000-page
 * import (a ~200 MB WAL) that COMMIT spent ~0.6 s of its ~1 s copying frames into the database
 * file, with the event loop blocked. Here the main connection's automatic checkpoints are off
 * (once the worker is ready) and a worker thread with a connection of its own runs a passive
 * checkpoint every second. A worker that dies is replaced; until one is ready, and after
 * `close` (or when a worker could not start), the main connection checkpoints as SQLite does
 * by default.
 */
export class SqliteCheckpointer {
  private worker: Worker | null = null;
  private closed = false;

  constructor(
    private readonly data: CheckpointWorkerData,
    private readonly connection: CheckpointedConnection,
  ) {
    this.spawn();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.automatic(true);
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2_000);
      worker.once('message', () => (clearTimeout(timer), resolve()));
      worker.once('exit', () => (clearTimeout(timer), resolve()));
      worker.postMessage('close');
    });
    await worker.terminate();
  }

  private automatic(on: boolean): void {
    // At shutdown TypeORM may have closed the connection first: nothing is left to switch.
    if (this.connection.open === false) return;
    // 1000 pages is SQLite's default.
    this.connection.pragma(`wal_autocheckpoint = ${on ? 1000 : 0}`);
  }

  private spawn(): void {
    const worker = startWorker(WORKER_ENTRY, { workerData: this.data });
    this.worker = worker;
    worker.unref();
    let ready = false;
    worker.once('message', (message: string) => {
      if (message !== 'ready' || this.closed || this.worker !== worker) return;
      ready = true;
      this.automatic(false);
    });
    const fail = () => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (this.closed) return;
      this.automatic(true);
      // A worker that could not even open the file would fail again: the main connection
      // keeps checkpointing then.
      if (ready) this.spawn();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
  }
}
