import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns, references } from '../migration-helpers';

/**
 * Email (docs/auth.md): `invitations` an administrator sent (the link's token kept as a
 * SHA-256 only), `password_resets` a person asked for (likewise), `digest_subscriptions` who
 * wants the daily inbox digest, and `scheduler_leases`, which lets one instance of several run a
 * periodic job (the digest) once per period.
 */
export class MailInvitationsResets1795847583124 implements MigrationInterface {
  name = 'MailInvitationsResets1795847583124';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'invitations',
        columns: [
          c.id(),
          c.string('token_hash', 64),
          c.string('email', 254),
          c.string('role', 16),
          c.json('group_names'),
          c.uuid('invited_by', true),
          c.datetime('created_at'),
          c.datetime('expires_at'),
          c.datetime('accepted_at', true),
          c.uuid('accepted_user_id', true),
          c.datetime('revoked_at', true),
        ],
        indices: [
          { name: 'idx_invitations_token', columnNames: ['token_hash'], isUnique: true },
          { name: 'idx_invitations_email', columnNames: ['email'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'password_resets',
        columns: [
          { ...c.string('token_hash', 64), isPrimary: true },
          c.uuid('user_id'),
          c.datetime('created_at'),
          c.datetime('expires_at'),
          c.datetime('used_at', true),
        ],
        indices: [{ name: 'idx_password_resets_user', columnNames: ['user_id'] }],
        foreignKeys: [references('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'digest_subscriptions',
        columns: [
          { ...c.uuid('user_id'), isPrimary: true },
          c.datetime('created_at'),
          // Notices created up to here were in a digest (or came before the subscription).
          c.datetime('covered_until'),
        ],
        foreignKeys: [references('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'scheduler_leases',
        columns: [
          { ...c.string('name', 64), isPrimary: true },
          c.string('lease_owner', 64, true),
          c.datetime('lease_until', true),
          c.datetime('next_run_at'),
          c.datetime('last_run_at', true),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('scheduler_leases');
    await queryRunner.dropTable('digest_subscriptions');
    await queryRunner.dropTable('password_resets');
    await queryRunner.dropTable('invitations');
  }
}
