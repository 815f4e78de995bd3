import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Path-scoped tokens (issue 34): a personal access token may be limited to slug patterns
 * (`paths`, a JSON array) and to verbs (`permissions`, a JSON array). NULL: no limit, which is
 * what every token made before was. Plain SQL, the same on both databases.
 */
export class TokenPaths1795850000020 implements MigrationInterface {
  name = 'TokenPaths1795850000020';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE access_tokens ADD COLUMN paths TEXT NULL');
    await queryRunner.query('ALTER TABLE access_tokens ADD COLUMN permissions VARCHAR(100) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE access_tokens DROP COLUMN permissions');
    await queryRunner.query('ALTER TABLE access_tokens DROP COLUMN paths');
  }
}
