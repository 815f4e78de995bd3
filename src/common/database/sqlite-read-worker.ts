import BetterSqlite3 from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { serveRequests } from '../workers/serve-requests';
import type { AnyReadQuery } from './sql';
import { SqliteSql } from './sqlite-database';
import type { ReadRequest, ReadWorkerData } from './sqlite-read-pool';

/**
 * A read-pool worker: its own read-only connection on the WAL database (readers never block
 * the writer and see every commit that finished before their statement began), and the
 * ReadQuery registries named in workerData (modules exporting `READ_QUERIES`, a Map by name).
 */
function main(): void {
  const data = workerData as ReadWorkerData;
  const connection = new BetterSqlite3(data.file, { readonly: true, fileMustExist: true });
  const sql = new SqliteSql(connection, true);
  const queries = new Map<string, AnyReadQuery>();
  for (const path of data.registries) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const registry = (require(path) as { READ_QUERIES: Map<string, AnyReadQuery> }).READ_QUERIES;
    for (const [name, query] of registry) queries.set(name, query);
  }
  serveRequests(({ name, args }: ReadRequest) => {
    const query = queries.get(name);
    if (!query) throw new Error(`No read query named ${name} in the read pool`);
    return query.run(sql, ...args);
  });
}

main();
