import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { columns } from '../migration-helpers';

export class Drafts1763800500000 implements MigrationInterface {
  name = 'Drafts1763800500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'drafts',
        columns: [
          c.id(),
          c.uuid('user_id'),
          // Keys are ASCII by rule; a binary collation keeps them case-sensitive on MySQL as on SQLite.
          {
            ...c.string('draft_key', 200),
            ...(c.mysql ? { charset: 'ascii', collation: 'ascii_bin' } : {}),
          },
          c.string('title', 500, true),
          c.json('document'),
          c.int('size'),
          c.datetime('created_at'),
          c.datetime('updated_at'),
        ],
        uniques: [{ name: 'uq_drafts_user_key', columnNames: ['user_id', 'draft_key'] }],
        indices: [{ name: 'idx_drafts_user_updated', columnNames: ['user_id', 'updated_at'] }],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('drafts');
  }
}
