import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How a browser session was made (`password`, `ldap`, `oidc:<id>`, …), shown in
 * `/api/me/sessions`. Sessions from before were all made with a password. Plain SQL, the
 * same on both databases (SQLite adds a column with a constant default without rebuilding).
 */
export class SessionMethod1795843284505 implements MigrationInterface {
  name = 'SessionMethod1795843284505';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      "ALTER TABLE sessions ADD COLUMN method VARCHAR(80) NOT NULL DEFAULT 'password'",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sessions DROP COLUMN method');
  }
}
