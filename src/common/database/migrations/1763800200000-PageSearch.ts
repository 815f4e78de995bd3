import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * The full-text index of pages (see src/pages/search). SQLite: an FTS5 table plus a page id →
 * rowid map. MySQL/MariaDB: an InnoDB table with FULLTEXT indexes, created with stopwords off
 * so that common words ("the", "and", "not") stay searchable.
 */
export class PageSearch1763800200000 implements MigrationInterface {
  name = 'PageSearch1763800200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    if (!c.mysql) {
      await queryRunner.query(
        `CREATE VIRTUAL TABLE page_search USING fts5(page_id UNINDEXED, title, body, tags, tokenize = 'unicode61 remove_diacritics 2')`,
      );
      await queryRunner.createTable(
        new Table({
          name: 'search_rowids',
          columns: [{ ...c.uuid('page_id'), isPrimary: true }, c.bigint('fts_rowid')],
        }),
      );
      return;
    }
    await queryRunner.createTable(
      new Table({
        name: 'page_search',
        columns: [
          { ...c.uuid('page_id'), isPrimary: true },
          c.string('title', 255),
          c.text('body'),
          c.text('tags'),
        ],
      }),
    );
    // Read when a FULLTEXT index is built: with it off the index keeps every word.
    await queryRunner.query('SET SESSION innodb_ft_enable_stopword = OFF');
    try {
      await queryRunner.query(
        'CREATE FULLTEXT INDEX ft_page_search_all ON page_search (title, body, tags)',
      );
      await queryRunner.query('CREATE FULLTEXT INDEX ft_page_search_title ON page_search (title)');
      await queryRunner.query('CREATE FULLTEXT INDEX ft_page_search_tags ON page_search (tags)');
    } finally {
      await queryRunner.query('SET SESSION innodb_ft_enable_stopword = DEFAULT');
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (!columns(queryRunner).mysql) await queryRunner.dropTable('search_rowids');
    await queryRunner.query('DROP TABLE page_search');
  }
}
