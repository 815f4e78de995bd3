import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { columns } from '../migration-helpers';

export class Notifications1763800400000 implements MigrationInterface {
  name = 'Notifications1763800400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'notifications',
        columns: [
          c.id(),
          c.uuid('recipient_id'),
          c.string('kind', 32),
          c.uuid('page_id', true),
          c.string('page_slug', 255, true),
          c.string('page_title', 255, true),
          c.uuid('actor_id', true),
          c.json('data'),
          // Set for notices that must exist at most once (review due: page + due date).
          c.string('dedupe_key', 128, true),
          c.datetime('read_at', true),
          c.datetime('created_at'),
        ],
        uniques: [{ name: 'uq_notifications_dedupe', columnNames: ['recipient_id', 'dedupe_key'] }],
        indices: [
          { name: 'idx_notifications_inbox', columnNames: ['recipient_id', 'created_at', 'id'] },
          { name: 'idx_notifications_unread', columnNames: ['recipient_id', 'read_at'] },
          { name: 'idx_notifications_page', columnNames: ['page_id'] },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['recipient_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
          new TableForeignKey({
            columnNames: ['actor_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          }),
          // A purged page takes its notices with it.
          new TableForeignKey({
            columnNames: ['page_id'],
            referencedTableName: 'pages',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('notifications');
  }
}
