import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * When each user last wrote (on the primary's clock). With read replicas (DATABASE_REPLICA_URLS)
 * a user who wrote within DATABASE_REPLICA_STICKY_SECONDS reads from the primary, on whichever
 * instance their next request lands: read-your-writes. Unused (and empty) without replicas.
 */
export class UserWriteMarks1763802017000 implements MigrationInterface {
  name = 'UserWriteMarks1763802017000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'user_write_marks',
        columns: [{ ...c.uuid('user_id'), isPrimary: true }, c.datetime('written_at')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('user_write_marks');
  }
}
