import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { columns, references } from '../migration-helpers';

/**
 * Change requests (issue 31, docs/review.md): a request with its proposed page changes (each
 * with the revision and Markdown it was based on, for the three-way merge), the reviews of its
 * current version, and the administrators' protected slug prefixes.
 */
export class ChangeRequests1795843238032 implements MigrationInterface {
  name = 'ChangeRequests1795843238032';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    // Slugs byte-exact like pages.live_slug (MySQL's default collation would fold case).
    const slug = (name: string, nullable = false) => ({
      ...c.string(name, 255, nullable),
      collation: c.mysql ? 'utf8mb4_bin' : undefined,
    });
    await queryRunner.createTable(
      new Table({
        name: 'change_requests',
        columns: [
          { ...c.int('id'), isPrimary: true },
          c.string('title', 255),
          c.text('description'),
          c.uuid('author_id'),
          c.string('state', 16),
          c.string('label', 200, true),
          c.int('version', false, 1),
          c.json('reviewer_ids'),
          c.datetime('created_at'),
          c.datetime('updated_at'),
          c.uuid('closed_by', true),
          c.datetime('closed_at', true),
        ],
        indices: [
          { name: 'idx_change_requests_state', columnNames: ['state', 'id'] },
          { name: 'idx_change_requests_label', columnNames: ['author_id', 'label'] },
        ],
        foreignKeys: [references('author_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'change_request_changes',
        columns: [
          { ...c.int('request_id'), isPrimary: true },
          { ...c.int('position'), isPrimary: true },
          slug('slug'),
          c.string('action', 8),
          slug('to_slug', true),
          c.string('title', 500, true),
          c.text('content', true),
          c.uuid('page_id', true),
          c.int('base_revision', true),
          c.text('base_content', true),
          c.string('base_title', 500, true),
        ],
        foreignKeys: [requestKey()],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'change_request_reviews',
        columns: [
          { ...c.int('request_id'), isPrimary: true },
          { ...c.uuid('user_id'), isPrimary: true },
          c.string('verdict', 24),
          c.int('version'),
          // The reviewer's role and groups when they reviewed (rules count approvals by group).
          c.string('reviewer_role', 16),
          c.json('reviewer_groups'),
          c.datetime('created_at'),
        ],
        foreignKeys: [requestKey(), references('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'protected_paths',
        columns: [
          { ...slug('prefix'), isPrimary: true },
          c.int('approvals'),
          c.json('group_names'),
          c.json('usernames'),
          c.datetime('updated_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('protected_paths');
    await queryRunner.dropTable('change_request_reviews');
    await queryRunner.dropTable('change_request_changes');
    await queryRunner.dropTable('change_requests');
  }
}

function requestKey(): TableForeignKey {
  return new TableForeignKey({
    columnNames: ['request_id'],
    referencedTableName: 'change_requests',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });
}
