import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns, references } from '../migration-helpers';

/**
 * What people watch (PUT /api/watches): a page by its slug, or a folder (`subtree`: the page
 * at the slug and every page under it). Kept by slug, not page id, so a folder that is not a
 * page can be watched and a page created later under a watched folder is covered.
 */
export class Watches1763838026100 implements MigrationInterface {
  name = 'Watches1763838026100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'watches',
        columns: [
          { ...c.uuid('user_id'), isPrimary: true },
          // Byte-exact like pages.live_slug (MySQL's default collation would fold case).
          {
            ...c.string('slug', 255),
            isPrimary: true,
            collation: c.mysql ? 'utf8mb4_bin' : undefined,
          },
          { ...c.bool('subtree'), isPrimary: true },
          c.datetime('created_at'),
        ],
        indices: [{ name: 'idx_watches_slug', columnNames: ['slug'] }],
        foreignKeys: [references('user_id', 'users')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('watches');
  }
}
