import { Injectable } from '@nestjs/common';
import { column, RowOf, rowDecoder, valueOf } from '../../common/database/column-defs';
import { Database, Tx } from '../../common/database/database';
import { insertRows } from '../../common/database/insert-rows';

/** `protected_paths`: one rule per slug prefix (docs/review.md). */
export const PROTECTED_PATH_COLUMNS = {
  prefix: column.varchar('prefix', 255, { primary: true }),
  approvals: column.int('approvals'),
  groups: column.json('group_names', {}, valueOf<string[]>()),
  users: column.json('usernames', {}, valueOf<string[]>()),
  updatedAt: column.datetime('updated_at'),
};
export type ProtectedPathRow = RowOf<typeof PROTECTED_PATH_COLUMNS>;

const KEYS = Object.keys(PROTECTED_PATH_COLUMNS) as (keyof ProtectedPathRow)[];
const decode = rowDecoder(PROTECTED_PATH_COLUMNS, KEYS);

/** The one door to `protected_paths`. */
@Injectable()
export class ProtectedPathsRepository {
  constructor(private readonly db: Database) {}

  async list(tx?: Tx): Promise<ProtectedPathRow[]> {
    const rows = await this.db.sql(tx).all('SELECT * FROM protected_paths ORDER BY prefix');
    return rows.map(decode);
  }

  /** Replaces every rule in one transaction (PUT is the whole list). */
  async replace(rows: ProtectedPathRow[], tx?: Tx): Promise<void> {
    await this.db.transaction(async ({ sql }) => {
      await sql.run('DELETE FROM protected_paths');
      await insertRows(sql, 'protected_paths', PROTECTED_PATH_COLUMNS, rows);
    }, tx);
  }
}
