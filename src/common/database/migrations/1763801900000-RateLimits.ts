import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/** Request counters shared by every instance (per caller, class and fixed window). */
export class RateLimits1763801900000 implements MigrationInterface {
  name = 'RateLimits1763801900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'rate_limit_counters',
        columns: [
          { ...c.string('counter_key', 200), isPrimary: true },
          c.int('hits', false, 0),
          c.datetime('expires_at'),
        ],
        indices: [{ name: 'idx_rate_limit_counters_expiry', columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('rate_limit_counters');
  }
}
