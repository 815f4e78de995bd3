import BetterSqlite3 from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { AnyReadQuery } from './sql';
import { SqliteSql } from './sqlite-database';
import type { ReadReply, ReadRequest, ReadWorkerData } from './sqlite-read-pool';

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
  parentPort!.on('message', (request: ReadRequest) => {
    void answer(request);
  });
  parentPort!.postMessage({ ready: true } satisfies ReadReply);

  async function answer({ id, name, args }: ReadRequest): Promise<void> {
    let reply: ReadReply;
    try {
      const query = queries.get(name);
      if (!query) throw new Error(`No read query named ${name} in the read pool`);
      reply = { id, result: await query.run(sql, ...args) };
    } catch (error) {
      const e = error as Error & { code?: string };
      reply = { id, error: { message: e.message, name: e.name, code: e.code } };
    }
    parentPort!.postMessage(reply);
  }
}

main();
