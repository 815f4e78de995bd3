import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * SAML sign-in (docs/sso.md): `sso_saml_assertions` holds the ids of the assertions kb has
 * accepted until they expire, so one replayed to any instance is refused. (The ids of kb's own
 * AuthnRequests live in `sso_login_states`, as an OpenID Connect sign-in's state does.)
 */
export class SamlAssertions1795843234163 implements MigrationInterface {
  name = 'SamlAssertions1795843234163';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'sso_saml_assertions',
        columns: [
          // `saml:<id>`, as in sso_identities.
          { ...c.string('provider', 80), isPrimary: true },
          // SHA-256 of the assertion's ID attribute (the IdP chooses it: any length).
          { ...c.string('assertion_hash', 64), isPrimary: true },
          c.datetime('expires_at'),
        ],
        indices: [{ name: 'idx_sso_saml_assertions_expiry', columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sso_saml_assertions');
  }
}
