import { Injectable } from '@nestjs/common';
import { column, RowOf, rowDecoder, valueOf } from '../../common/database/column-defs';
import { Database, Tx } from '../../common/database/database';
import { insertRows } from '../../common/database/insert-rows';

/** A prompted field of a template: `{{name}}` in its Markdown, asked for by `label`. */
export interface TemplateField {
  name: string;
  label: string;
}

/** `page_templates`: one template per name (docs/pages.md, "Templates"). */
export const PAGE_TEMPLATE_COLUMNS = {
  name: column.varchar('name', 100, { primary: true }),
  title: column.varchar('title', 255),
  description: column.varchar('description', 1000),
  content: column.text('content'),
  fields: column.json('fields', {}, valueOf<TemplateField[]>()),
  tags: column.json('tags', {}, valueOf<string[]>()),
  groups: column.json('group_names', {}, valueOf<string[]>()),
  owner: column.varchar('owner_username', 255, { nullable: true }),
  reviewIntervalDays: column.int('review_interval_days', { nullable: true }),
  lifecycle: column.varchar('lifecycle', 32, { nullable: true }),
  updatedAt: column.datetime('updated_at'),
};
export type PageTemplateRow = RowOf<typeof PAGE_TEMPLATE_COLUMNS>;

const KEYS = Object.keys(PAGE_TEMPLATE_COLUMNS) as (keyof PageTemplateRow)[];
const decode = rowDecoder(PAGE_TEMPLATE_COLUMNS, KEYS);

/** The one door to `page_templates`. */
@Injectable()
export class PageTemplatesRepository {
  constructor(private readonly db: Database) {}

  async list(tx?: Tx): Promise<PageTemplateRow[]> {
    const rows = await this.db.sql(tx).all('SELECT * FROM page_templates ORDER BY name');
    return rows.map(decode);
  }

  async find(name: string, tx?: Tx): Promise<PageTemplateRow | null> {
    const rows = await this.db.sql(tx).all('SELECT * FROM page_templates WHERE name = ?', [name]);
    return rows.length === 0 ? null : decode(rows[0]);
  }

  /** Inserts a template; false when the name is taken. */
  async insert(row: PageTemplateRow, tx?: Tx): Promise<boolean> {
    return this.db.transaction(async ({ sql }) => {
      const taken = await sql.all('SELECT name FROM page_templates WHERE name = ?', [row.name]);
      if (taken.length > 0) return false;
      await insertRows(sql, 'page_templates', PAGE_TEMPLATE_COLUMNS, [row]);
      return true;
    }, tx);
  }

  /** Replaces a template (or stores it: `upsert`); false when there was none to replace. */
  async replace(row: PageTemplateRow, upsert: boolean, tx?: Tx): Promise<boolean> {
    return this.db.transaction(async ({ sql }) => {
      const { changes } = await sql.run('DELETE FROM page_templates WHERE name = ?', [row.name]);
      if (changes === 0 && !upsert) return false;
      await insertRows(sql, 'page_templates', PAGE_TEMPLATE_COLUMNS, [row]);
      return true;
    }, tx);
  }

  async remove(name: string, tx?: Tx): Promise<boolean> {
    const { changes } = await this.db.write(
      ({ sql }) => sql.run('DELETE FROM page_templates WHERE name = ?', [name]),
      tx,
    );
    return changes > 0;
  }
}
