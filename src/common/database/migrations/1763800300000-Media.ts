import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { columns } from '../migration-helpers';

export class Media1763800300000 implements MigrationInterface {
  name = 'Media1763800300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'media',
        columns: [
          c.id(),
          c.string('kind', 16),
          c.string('filename', 255),
          c.string('mime_type', 127),
          c.bigint('size'),
          c.string('sha256', 64),
          c.int('width', true),
          c.int('height', true),
          c.uuid('uploaded_by', true),
          c.datetime('created_at'),
        ],
        indices: [
          { name: 'idx_media_kind_created', columnNames: ['kind', 'created_at', 'id'] },
          { name: 'idx_media_sha256', columnNames: ['sha256'] },
          { name: 'idx_media_uploaded_by', columnNames: ['uploaded_by'] },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['uploaded_by'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('media');
  }
}
