import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs `work` in one transaction. On SQLite, concurrent transactions take turns through the
 * process-wide serialisation in common/database/sqlite-serial.ts; on MySQL each gets a pooled
 * connection. The page writers' correctness under concurrency does not rest on that: every
 * update is a conditional `UPDATE ... WHERE id = ? AND revision = ?`.
 */
export function inTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return dataSource.transaction(work);
}
