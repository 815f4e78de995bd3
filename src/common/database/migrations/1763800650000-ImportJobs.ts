import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { columns } from '../migration-helpers';

/** Import jobs (POST /api/import with async=true): the job, its lease, progress and result. */
export class ImportJobs1763800650000 implements MigrationInterface {
  name = 'ImportJobs1763800650000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'import_jobs',
        columns: [
          c.id(),
          c.string('state', 16),
          c.string('format', 16),
          c.bool('dry_run'),
          c.uuid('created_by', true),
          c.datetime('created_at'),
          c.datetime('started_at', true),
          c.datetime('finished_at', true),
          // The validated options and the upload (files on the receiving instance's disk).
          c.json('request'),
          c.json('progress'),
          c.json('report', true),
          c.json('problem', true),
          c.bool('cancel_requested'),
          // The instance that runs the job, until when; renewed while it runs.
          c.string('lease_owner', 64, true),
          c.datetime('lease_expires_at', true),
        ],
        indices: [
          { name: 'idx_import_jobs_created', columnNames: ['created_at', 'id'] },
          { name: 'idx_import_jobs_lease', columnNames: ['state', 'lease_expires_at'] },
          { name: 'idx_import_jobs_finished', columnNames: ['finished_at'] },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['created_by'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('import_jobs');
  }
}
