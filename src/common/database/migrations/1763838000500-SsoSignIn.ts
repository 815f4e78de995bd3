import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns, references } from '../migration-helpers';

/**
 * Single sign-on (docs/sso.md): `sso_identities` links a provider's subject to a kb user, and
 * `sso_login_states` keeps a sign-in between its start and the provider's callback (state,
 * nonce, PKCE verifier), so a flow that starts on one instance can finish on another;
 * `sso_sessions` says which provider made a browser session (to end its session at sign-out).
 */
export class SsoSignIn1763838000500 implements MigrationInterface {
  name = 'SsoSignIn1763838000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'sso_identities',
        columns: [
          // `oidc:<id>`: the protocol and the configured provider id.
          { ...c.string('provider', 80), isPrimary: true },
          // The provider's stable subject (`sub`), never the username (which may change).
          { ...c.string('subject', 255), isPrimary: true },
          c.uuid('user_id'),
          c.datetime('created_at'),
          c.datetime('last_login_at'),
        ],
        indices: [{ name: 'idx_sso_identities_user', columnNames: ['user_id'] }],
        foreignKeys: [references('user_id', 'users')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sso_login_states',
        columns: [
          // SHA-256 of the `state` parameter: a database read can't finish anyone's sign-in.
          { ...c.string('id', 64), isPrimary: true },
          c.string('provider', 80),
          // SHA-256 of the browser-binding cookie set at the start (login CSRF guard).
          c.string('binding_hash', 64),
          c.string('nonce', 128),
          c.string('code_verifier', 128),
          c.string('return_to', 2048),
          c.datetime('expires_at'),
        ],
        indices: [{ name: 'idx_sso_login_states_expiry', columnNames: ['expires_at'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'sso_sessions',
        columns: [{ ...c.string('session_id', 64), isPrimary: true }, c.string('provider', 80)],
        foreignKeys: [references('session_id', 'sessions')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sso_sessions');
    await queryRunner.dropTable('sso_login_states');
    await queryRunner.dropTable('sso_identities');
  }
}
