import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns, references } from '../migration-helpers';

/**
 * Comments on pages (docs/comments.md): threads, their replies (`thread_id` names the thread's
 * first comment; it is the comment's own id for that one), and inline threads anchored to a
 * passage (`anchor`: the quote with its context and where it is now, re-anchored against each
 * revision: `anchor_revision`). A purged page takes its comments with it.
 */
export class Comments1795843269443 implements MigrationInterface {
  name = 'Comments1795843269443';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'comments',
        columns: [
          c.id(),
          c.uuid('page_id'),
          c.uuid('thread_id'),
          c.uuid('parent_id', true),
          c.uuid('author_id', true),
          c.text('body'),
          c.text('html'),
          c.json('anchor', true),
          c.bool('outdated'),
          c.int('anchor_revision', true),
          c.datetime('resolved_at', true),
          c.uuid('resolved_by', true),
          c.datetime('created_at'),
          c.datetime('updated_at'),
          c.datetime('edited_at', true),
        ],
        indices: [
          { name: 'idx_comments_page', columnNames: ['page_id', 'created_at'] },
          { name: 'idx_comments_thread', columnNames: ['thread_id', 'created_at'] },
        ],
        foreignKeys: [references('page_id', 'pages')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('comments');
  }
}
