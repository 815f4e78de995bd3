import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns, references } from '../migration-helpers';

/**
 * Live co-editing (issue 30, docs/collab.md): the Yjs updates of a page's shared document,
 * appended as they arrive and compacted into one snapshot row, so a restart or a kill -9 loses
 * nothing a peer was sent; and the co-authors of a revision (usernames, JSON; NULL: none), a
 * nullable column added in place as RevisionSummary did.
 */
export class CollabUpdates1795843274247 implements MigrationInterface {
  name = 'CollabUpdates1795843274247';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'collab_updates',
        columns: [
          c.id(),
          c.uuid('page_id'),
          // A Yjs update (or a merged snapshot of several), base64.
          c.text('data'),
          // Ids of the people who typed in it since the page's last revision (JSON array).
          c.json('authors'),
          // The page revision the document's text was last written as (or seeded from).
          c.int('revision'),
          c.datetime('created_at'),
        ],
        indices: [{ name: 'idx_collab_updates_page', columnNames: ['page_id'] }],
        foreignKeys: [references('page_id', 'pages')],
      }),
    );
    await queryRunner.query(
      `ALTER TABLE page_revisions ADD COLUMN co_authors ${c.mysql ? 'longtext' : 'text'} NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE page_revisions DROP COLUMN co_authors');
    await queryRunner.dropTable('collab_updates');
  }
}
