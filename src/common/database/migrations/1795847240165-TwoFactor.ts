import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns, references } from '../migration-helpers';

/**
 * Second factors (docs/auth.md "Two-factor and passkeys"): a TOTP secret per user
 * (`user_totp`, confirmed once `enabled_at` is set), single-use recovery codes kept as hashes
 * (`user_recovery_codes`), passkeys (`passkeys`, WebAuthn credentials) and the short-lived
 * challenges of a sign-in between its steps (`auth_challenges`: a password accepted while a
 * second factor is due, a WebAuthn challenge), in the database so any instance can finish a
 * flow another one started. (`sessions.method`, which says how a session was made, is added by
 * SessionMethod.)
 */
export class TwoFactor1795847240165 implements MigrationInterface {
  name = 'TwoFactor1795847240165';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'user_totp',
        columns: [
          { ...c.uuid('user_id'), isPrimary: true },
          // Base32 (RFC 4648), as the authenticator app has it; never answered after enrolment.
          c.string('secret', 64),
          c.datetime('created_at'),
          c.datetime('enabled_at', true),
          // The last accepted time step: a code is accepted once (RFC 6238 section 5.2).
          c.bigint('last_step', true),
        ],
        foreignKeys: [references('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'user_recovery_codes',
        columns: [
          // SHA-256 of the code (60 random bits): a database read signs nobody in.
          { ...c.string('code_hash', 64), isPrimary: true },
          c.uuid('user_id'),
          c.datetime('created_at'),
        ],
        indices: [{ name: 'idx_user_recovery_codes_user', columnNames: ['user_id'] }],
        foreignKeys: [references('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'passkeys',
        columns: [
          // The credential id (base64url), as the authenticator names it.
          { ...c.string('id', 255), isPrimary: true },
          c.uuid('user_id'),
          c.string('name', 100),
          c.text('public_key'),
          c.bigint('counter'),
          c.string('transports', 255),
          c.datetime('created_at'),
          c.datetime('last_used_at', true),
        ],
        indices: [{ name: 'idx_passkeys_user', columnNames: ['user_id'] }],
        foreignKeys: [references('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'auth_challenges',
        columns: [
          // SHA-256 of the secret (a cookie value or a WebAuthn challenge).
          { ...c.string('id', 64), isPrimary: true },
          // `second_factor`, `enrol`, `passkey_register`, `passkey_login`.
          c.string('kind', 32),
          c.uuid('user_id', true),
          c.string('method', 64, true),
          c.datetime('expires_at'),
        ],
        indices: [{ name: 'idx_auth_challenges_expiry', columnNames: ['expires_at'] }],
        foreignKeys: [references('user_id', 'users')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('auth_challenges');
    await queryRunner.dropTable('passkeys');
    await queryRunner.dropTable('user_recovery_codes');
    await queryRunner.dropTable('user_totp');
  }
}
