import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * One row counting credential changes (a session ended, a token revoked, a user disabled or
 * their role or groups changed). Every instance compares it per request with the count its
 * credential cache was filled at, so such a change takes effect on all of them at once.
 */
export class AuthGeneration1763801700000 implements MigrationInterface {
  name = 'AuthGeneration1763801700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'auth_generation',
        columns: [{ ...c.int('id'), isPrimary: true }, c.bigint('generation')],
      }),
    );
    await queryRunner.query('INSERT INTO auth_generation (id, generation) VALUES (1, 0)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('auth_generation');
  }
}
