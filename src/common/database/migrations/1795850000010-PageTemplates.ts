import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';
import { insertStarterTemplates } from '../starter-templates';

/**
 * Page templates (issue 33, docs/pages.md): Markdown with placeholders and prompted fields,
 * and the metadata a page made from it starts with; the starter set is stored once, so an
 * administrator's edits and removals stay.
 */
export class PageTemplates1795850000010 implements MigrationInterface {
  name = 'PageTemplates1795850000010';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'page_templates',
        columns: [
          { ...c.string('name', 100), isPrimary: true },
          c.string('title', 255),
          c.string('description', 1000),
          c.text('content'),
          c.json('fields'),
          c.json('tags'),
          c.json('group_names'),
          c.string('owner_username', 255, true),
          c.int('review_interval_days', true),
          c.string('lifecycle', 32, true),
          c.datetime('updated_at'),
        ],
      }),
    );
    await insertStarterTemplates(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('page_templates');
  }
}
