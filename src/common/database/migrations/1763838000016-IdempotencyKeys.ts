import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * Idempotency-Key requests (POST /api/import, POST /api/pages): one row per caller and key,
 * claimed before the work so that concurrent retries on any instance wait for the first.
 */
export class IdempotencyKeys1763838000016 implements MigrationInterface {
  name = 'IdempotencyKeys1763838000016';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          { ...c.string('caller', 64), isPrimary: true },
          { ...c.string('idem_key', 255), isPrimary: true },
          c.string('fingerprint', 64),
          c.uuid('claim_id'),
          // `pending` while the first request runs, `done` once its answer is stored.
          c.string('state', 16),
          c.int('status', true),
          c.json('headers', true),
          c.text('body', true),
          c.datetime('claimed_at'),
          c.datetime('expires_at'),
        ],
        indices: [{ name: 'idx_idempotency_keys_expiry', columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
