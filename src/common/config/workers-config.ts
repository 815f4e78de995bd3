import { availableParallelism } from 'node:os';
import { Env, IntRange } from './env-schema';

/** Processes and threads: docs/deploy.md and docs/PERFORMANCE.md. */
export class WorkersConfig {
  /**
   * KB_WORKERS: HTTP worker processes (node:cluster; default: the number of CPUs). 1 runs the
   * app in the started process itself, without a cluster.
   */
  @Env('KB_WORKERS', 'int') @IntRange(1, 256) processes = availableParallelism();

  /**
   * KB_READ_WORKERS: threads with read-only SQLite connections for reads over many rows
   * (default 2; 0 runs them on the main thread). Unused on MySQL.
   */
  @Env('KB_READ_WORKERS', 'int') @IntRange(0, 64) readThreads = 2;

  /**
   * KB_RENDER_WORKERS: threads rendering Markdown for page writes and stale reads (default 1,
   * started with the first long page; 0 renders on the main thread).
   */
  @Env('KB_RENDER_WORKERS', 'int') @IntRange(0, 64) renderThreads = 1;
}
