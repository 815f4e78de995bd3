import { Injectable } from '@nestjs/common';
import { Database, Tx } from '../../common/database/database';
import { insertTuples } from '../../common/database/insert-rows';
import { placeholders, Sql } from '../../common/database/sql';

/**
 * The site-wide variables (`site_variables`) and their version (`site_variable_state`, one row
 * with id 1, created by the first change). The only code that names those tables, besides the
 * page read, which takes the version in the same statement as the page (page-rows.ts).
 */
@Injectable()
export class SiteVariablesRepository {
  constructor(private readonly db: Database) {}

  async version(tx?: Tx): Promise<number> {
    const [row] = await this.db
      .sql(tx)
      .all<{ version: number | string }>('SELECT version FROM site_variable_state WHERE id = 1');
    return row ? Number(row.version) : 0;
  }

  /** Every variable, by name. */
  async values(tx?: Tx): Promise<Record<string, string>> {
    const rows = await this.db
      .sql(tx)
      .all<{ name: string; value: string }>(
        'SELECT name, value FROM site_variables ORDER BY name ASC',
      );
    const values: Record<string, string> = {};
    for (const row of rows) values[row.name] = row.value;
    return values;
  }

  /** Sets these variables (others are kept) and moves the version on. */
  merge(values: Record<string, string>, tx?: Tx): Promise<void> {
    const names = Object.keys(values);
    if (names.length === 0) return Promise.resolve();
    return this.db.transaction(async ({ sql }) => {
      await sql.run(
        `DELETE FROM site_variables WHERE name IN (${placeholders(names.length)})`,
        names,
      );
      await insertVariables(sql, values);
      await bumpVersion(sql);
    }, tx);
  }

  /** Replaces every variable and moves the version on; answers the new version. */
  replace(values: Record<string, string>, tx?: Tx): Promise<number> {
    return this.db.transaction(async (inner) => {
      await inner.sql.run('DELETE FROM site_variables');
      await insertVariables(inner.sql, values);
      await bumpVersion(inner.sql);
      return this.version(inner);
    }, tx);
  }
}

function insertVariables(sql: Sql, values: Record<string, string>): Promise<void> {
  return insertTuples(sql, 'site_variables', ['name', 'value'], Object.entries(values));
}

/** One more site-variables version (the single state row is created by the first change). */
async function bumpVersion(sql: Sql): Promise<void> {
  const { changes } = await sql.run(
    'UPDATE site_variable_state SET version = version + 1 WHERE id = 1',
  );
  if (!changes) await sql.run('INSERT INTO site_variable_state (id, version) VALUES (1, 1)');
}
