import { ColumnDefs, encodeValue, RowOf } from './column-defs';
import { placeholders, Sql } from './sql';

/**
 * Plain `INSERT INTO table (...) VALUES (...), (...)`: one row per statement on SQLite,
 * several on MySQL/MariaDB (Dialect.rowsPerInsert), without a query builder's per-statement
 * work. Every column is given in every row.
 */
export async function insertTuples(
  sql: Sql,
  table: string,
  columnNames: readonly string[],
  tuples: readonly unknown[][],
): Promise<void> {
  if (tuples.length === 0) return;
  const head = `INSERT INTO ${table} (${columnNames.join(', ')}) VALUES `;
  const tuple = `(${placeholders(columnNames.length)})`;
  const perStatement = sql.dialect.rowsPerInsert(columnNames.length);
  for (let start = 0; start < tuples.length; start += perStatement) {
    const chunk = tuples.slice(start, start + perStatement);
    await sql.run(head + chunk.map(() => tuple).join(', '), chunk.flat());
  }
}

/** Whole rows of a table described by a column constant (values encoded as stored). */
export function insertRows<C extends ColumnDefs>(
  sql: Sql,
  table: string,
  columns: C,
  rows: readonly RowOf<C>[],
): Promise<void> {
  const keys = Object.keys(columns);
  return insertTuples(
    sql,
    table,
    keys.map((key) => columns[key].name),
    rows.map((row) =>
      keys.map((key) => {
        const value = (row as Record<string, unknown>)[key];
        if (value === undefined)
          throw new Error(`insertRows: ${table}.${columns[key].name} missing`);
        return encodeValue(columns[key], value);
      }),
    ),
  );
}
