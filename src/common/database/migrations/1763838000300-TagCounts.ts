import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * `GET /api/tags` counted every visible page's tags per request: a GROUP BY over all of
 * page_tags, ~1.1 s at 100,000 pages on SQLite, holding a read worker while every other pooled
 * read waited. `tag_counts` keeps, per tag, the live pages carrying it (`live_count`, what an
 * administrator sees) and those of them in no group (`open_count`, what anyone sees), kept in
 * the page writes' own transactions (store/tag-counts.ts; not triggers: MariaDB does not fire
 * them for foreign-key cascades). Viewers with groups add the few group-restricted pages.
 */
export class TagCounts1763838000300 implements MigrationInterface {
  name = 'TagCounts1763838000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'tag_counts',
        columns: [
          // Byte-exact like page_tags.tag (MySQL's default collation would fold case).
          {
            ...c.string('tag', 64),
            isPrimary: true,
            collation: c.mysql ? 'utf8mb4_bin' : undefined,
          },
          c.int('live_count', false, 0),
          c.int('open_count', false, 0),
        ],
      }),
    );
    await queryRunner.query(
      'INSERT INTO tag_counts (tag, live_count, open_count) ' +
        'SELECT t.tag, COUNT(*), ' +
        'SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM page_groups g WHERE g.page_id = p.id) THEN 1 ELSE 0 END) ' +
        'FROM page_tags t INNER JOIN pages p ON p.id = t.page_id WHERE p.live_slug IS NOT NULL GROUP BY t.tag',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('tag_counts');
  }
}
