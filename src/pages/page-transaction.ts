import { DataSource, EntityManager } from 'typeorm';

const queues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs `work` in a transaction. TypeORM's SQLite drivers share ONE connection, so two
 * concurrent `dataSource.transaction()` calls would nest as savepoints of each other; on SQLite
 * the transactions of this process therefore run one after another. MySQL uses the pool.
 */
export function inTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (dataSource.options.type === 'mysql') return dataSource.transaction(work);
  const previous = queues.get(dataSource) ?? Promise.resolve();
  const run = previous.then(
    () => dataSource.transaction(work),
    () => dataSource.transaction(work),
  );
  queues.set(
    dataSource,
    run.catch(() => undefined),
  );
  return run;
}
