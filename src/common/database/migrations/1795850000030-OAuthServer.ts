import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * kb as an OAuth authorization server (docs/oauth.md). `oauth_records` is the storage of
 * oidc-provider's models (clients registered dynamically, grants, authorization codes, access
 * and refresh tokens, interactions, sessions), one row per instance: `payload` is the model's
 * JSON; tokens and codes are keyed by their SHA-256, never by the secret. The columns beside the
 * payload are what kb looks rows up by. `kb_scope` (grants only) is what the person consented
 * to, as a structure that path limits can join (`{role, paths}`); `banned_at` (clients only)
 * marks a client an administrator banned.
 */
export class OAuthServer1795850000030 implements MigrationInterface {
  name = 'OAuthServer1795850000030';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'oauth_records',
        columns: [
          { ...c.string('model', 32), isPrimary: true },
          { ...c.string('id', 128), isPrimary: true },
          c.json('payload'),
          c.string('grant_id', 128, true),
          c.string('uid', 128, true),
          c.string('user_code', 128, true),
          c.uuid('account_id', true),
          c.string('client_id', 128, true),
          c.json('kb_scope', true),
          c.datetime('created_at'),
          c.datetime('expires_at', true),
          c.datetime('consumed_at', true),
          c.datetime('banned_at', true),
        ],
        indices: [
          { name: 'idx_oauth_records_grant', columnNames: ['grant_id'] },
          { name: 'idx_oauth_records_uid', columnNames: ['uid'] },
          { name: 'idx_oauth_records_account', columnNames: ['model', 'account_id'] },
          { name: 'idx_oauth_records_client', columnNames: ['client_id'] },
          { name: 'idx_oauth_records_expires', columnNames: ['expires_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('oauth_records');
  }
}
