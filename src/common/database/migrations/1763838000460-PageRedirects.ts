import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns, references } from '../migration-helpers';

/**
 * `page_redirects`: an old slug of a moved page (`POST /api/pages/move`) and the page it now
 * names. A redirect points at the page, not at a slug, so a chain collapses by itself (A→B,
 * then B→C: A names the page, which is at C) and a purged page takes its redirects with it.
 * `from_slug` is unique and byte-exact like `pages.live_slug`; a page created at an old slug
 * replaces its redirect (the page writes delete it in their own transaction).
 */
export class PageRedirects1763838000460 implements MigrationInterface {
  name = 'PageRedirects1763838000460';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'page_redirects',
        columns: [
          {
            ...c.string('from_slug', 255),
            isPrimary: true,
            collation: c.mysql ? 'utf8mb4_bin' : undefined,
          },
          c.uuid('page_id'),
          c.datetime('created_at'),
          c.uuid('created_by', true),
        ],
        indices: [{ name: 'idx_page_redirects_page', columnNames: ['page_id'] }],
        foreignKeys: [references('page_id', 'pages')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('page_redirects');
  }
}
