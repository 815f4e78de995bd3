import type { AnyReadQuery } from './sql';
import { WorkerPool } from '../workers/worker-pool';

export interface ReadWorkerData {
  /** The SQLite file, opened read-only. */
  file: string;
  /** Modules exporting `READ_QUERIES` (a Map of ReadQuery by name), required by each worker. */
  registries: string[];
}

/** A ReadQuery by name, with its arguments. */
export interface ReadRequest {
  name: string;
  args: unknown[];
}

const WORKER_ENTRY = `${__dirname}/sqlite-read-worker${__filename.slice(__filename.lastIndexOf('.'))}`;

/**
 * Worker threads running ReadQueries on read-only connections of their own, so reads over many
 * rows (search, lists, graph, archive batches) never hold the event loop (see WorkerPool for
 * the dispatch; until a worker is ready, reads run on the main thread).
 */
export class SqliteReadPool extends WorkerPool<ReadRequest, unknown> {
  constructor(data: ReadWorkerData, size: number) {
    super(WORKER_ENTRY, data, size, 'sqlite_readers');
  }

  query(query: AnyReadQuery, args: unknown[]): Promise<unknown> {
    return this.run({ name: query.name, args });
  }
}
