import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { isMysql } from '../../common/database/data-source';

/** Rows per INSERT statement: well below SQLite's and MySQL's bound-parameter limits. */
const MAX_PARAMETERS = 10_000;
const MAX_ROWS = 500;

/**
 * Plain `INSERT INTO table (...) VALUES (...), (...)` of complete entity rows (multi-row on
 * MySQL/MariaDB, one row per statement on SQLite),
 * without the query builder's per-statement work (and without its re-reading of defaulted
 * columns). Values go through the driver's own conversion (dates, JSON, booleans), so the
 * stored form is what `manager.insert` would store. Every column must be given in every row.
 */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: T[],
): Promise<void> {
  if (rows.length === 0) return;
  const metadata = manager.connection.getMetadata(target);
  const driver = manager.connection.driver;
  const columns = metadata.columns;
  const head =
    `INSERT INTO ${driver.escape(metadata.tableName)} ` +
    `(${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES `;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  // SQLite: one row per statement. A multi-row INSERT needs a statement journal (it could fail
  // half-way) and measured ~10x slower per row inside a large import transaction, while the
  // one-row statement is prepared once and reused. MySQL: few round trips matter most.
  const perStatement = isMysql(manager.connection.options)
    ? Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / columns.length)))
    : 1;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const parameters: unknown[] = [];
    for (const row of chunk) {
      for (const column of columns) {
        const value: unknown = column.getEntityValue(row);
        if (value === undefined)
          throw new Error(`insertRows: ${metadata.tableName}.${column.databaseName} missing`);
        parameters.push(driver.preparePersistentValue(value, column));
      }
    }
    await manager.query(head + chunk.map(() => tuple).join(', '), parameters);
  }
}
