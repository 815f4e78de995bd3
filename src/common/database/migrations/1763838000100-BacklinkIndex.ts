import { MigrationInterface, QueryRunner } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * The visible backlinks of a page read (page-reads.ts `backlinks`) look up each linking page by
 * id for its live slug, title and slug. On SQLite `pages` is a rowid table: the lookup went
 * through the TEXT id's autoindex and then the table row; this covering index answers it from
 * one index b-tree (about half the statement's time at ~15 links a page). On MySQL/MariaDB
 * the primary key is the clustered index, so the lookup already lands on the row, and the
 * index would exceed InnoDB's key length (three utf8mb4 VARCHAR(255)): nothing to do there.
 */
export class BacklinkIndex1763838000100 implements MigrationInterface {
  name = 'BacklinkIndex1763838000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (columns(queryRunner).mysql) return;
    await queryRunner.query(
      'CREATE INDEX idx_pages_id_listing ON pages (id, live_slug, title, slug)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (columns(queryRunner).mysql) return;
    await queryRunner.query('DROP INDEX idx_pages_id_listing');
  }
}
