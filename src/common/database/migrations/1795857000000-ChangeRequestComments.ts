import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * Review comments on the lines of a change request's diff (issue 31, docs/review.md): each
 * names the page change (its slug), the side of the diff (`base` or `proposed`), the line, and
 * the text of that line when it was written, so a later version of the request can tell the
 * comment is outdated.
 */
export class ChangeRequestComments1795857000000 implements MigrationInterface {
  name = 'ChangeRequestComments1795857000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'change_request_comments',
        columns: [
          c.id(),
          c.int('request_id'),
          c.uuid('thread_id'),
          c.uuid('parent_id', true),
          c.uuid('author_id', true),
          // Byte-exact like change_request_changes.slug.
          { ...c.string('slug', 255), collation: c.mysql ? 'utf8mb4_bin' : undefined },
          c.string('side', 8),
          c.int('line'),
          c.text('line_text'),
          c.int('version'),
          c.text('body'),
          c.text('html'),
          c.datetime('created_at'),
          c.datetime('updated_at'),
          c.datetime('edited_at', true),
        ],
        indices: [
          {
            name: 'idx_change_request_comments_request',
            columnNames: ['request_id', 'created_at', 'id'],
          },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['request_id'],
            referencedTableName: 'change_requests',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('change_request_comments');
  }
}
