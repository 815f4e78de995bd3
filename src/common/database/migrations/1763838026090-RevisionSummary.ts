import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A revision's optional change summary ("Fixed the install steps"), written with the edit that
 * made it (issue 26). A plain nullable column added in place on both databases: SQLite's
 * ADD COLUMN and MariaDB's instant ADD COLUMN leave the existing rows untouched (NULL), where
 * TypeORM's addColumn would copy the whole revision table on SQLite.
 * 500 characters: MAX_SUMMARY_LENGTH in src/pages/model/revision-summary.ts.
 */
export class RevisionSummary1763838026090 implements MigrationInterface {
  name = 'RevisionSummary1763838026090';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE page_revisions ADD COLUMN summary varchar(500) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE page_revisions DROP COLUMN summary');
  }
}
