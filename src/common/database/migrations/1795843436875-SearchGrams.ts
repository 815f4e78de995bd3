import { MigrationInterface, QueryRunner } from 'typeorm';
import { gramsOf } from '../../../pages/public-sql';
import { columns } from '../migration-helpers';

const TOKENIZER = "tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'";
/** Rows read and written per statement while the grams are filled in. */
const BATCH = 500;

interface IndexRow {
  key: string | number;
  title: string;
  body: string;
  tags: string;
}

/**
 * Search in every language (src/pages/model/search/search-grams.ts): the index gains `title_grams`
 * and `body_grams`, the overlapping character pairs of Chinese, Japanese, Korean, Thai, … runs
 * and, on MySQL/MariaDB, the words shorter than innodb_ft_min_token_size, padded with `_`, so
 * `東京` inside `東京都` and `Go`, `CI` are found. SQLite: an FTS5 table's columns cannot be
 * changed, so it is rebuilt with the same rowids (search_rowids stays valid); MySQL/MariaDB:
 * two columns, and the title and combined FULLTEXT indexes rebuilt to cover them. The grams of
 * existing rows are computed here, in batches.
 */
export class SearchGrams1795843436875 implements MigrationInterface {
  name = 'SearchGrams1795843436875';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (columns(queryRunner).mysql) return this.upMysql(queryRunner);
    await queryRunner.query(
      'CREATE VIRTUAL TABLE page_search_next USING fts5(page_id UNINDEXED, title, body, tags, ' +
        `title_grams, body_grams, ${TOKENIZER})`,
    );
    await queryRunner.query(
      'INSERT INTO page_search_next (rowid, page_id, title, body, tags, title_grams, body_grams) ' +
        "SELECT rowid, page_id, title, body, tags, '', '' FROM page_search",
    );
    await queryRunner.query('DROP TABLE page_search');
    await queryRunner.query('ALTER TABLE page_search_next RENAME TO page_search');
    // "Did you mean" reads the index's vocabulary (src/pages/store/search/spelling.ts).
    await queryRunner.query(
      "CREATE VIRTUAL TABLE page_search_vocab USING fts5vocab(page_search, 'row')",
    );
    await fillGrams(
      queryRunner,
      'SELECT rowid AS key, title, body, tags FROM page_search WHERE rowid > ? ORDER BY rowid LIMIT ?',
      0,
      'UPDATE page_search SET title_grams = ?, body_grams = ? WHERE rowid = ?',
      0,
    );
  }

  private async upMysql(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE page_search ADD COLUMN title_grams TEXT NULL, ADD COLUMN body_grams LONGTEXT NULL',
    );
    const [size] = (await queryRunner.query('SELECT @@innodb_ft_min_token_size AS size')) as {
      size: number | string;
    }[];
    await fillGrams(
      queryRunner,
      'SELECT page_id AS `key`, title, body, tags FROM page_search WHERE page_id > ? ORDER BY page_id LIMIT ?',
      '',
      'UPDATE page_search SET title_grams = ?, body_grams = ? WHERE page_id = ?',
      Number(size ?? 3),
    );
    await queryRunner.query('SET SESSION innodb_ft_enable_stopword = OFF');
    try {
      await queryRunner.query('DROP INDEX ft_page_search_all ON page_search');
      await queryRunner.query('DROP INDEX ft_page_search_title ON page_search');
      await queryRunner.query(
        'CREATE FULLTEXT INDEX ft_page_search_all ON page_search (title, body, tags, title_grams, body_grams)',
      );
      await queryRunner.query(
        'CREATE FULLTEXT INDEX ft_page_search_title ON page_search (title, title_grams)',
      );
    } finally {
      await queryRunner.query('SET SESSION innodb_ft_enable_stopword = DEFAULT');
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (columns(queryRunner).mysql) {
      await queryRunner.query('SET SESSION innodb_ft_enable_stopword = OFF');
      try {
        await queryRunner.query('DROP INDEX ft_page_search_all ON page_search');
        await queryRunner.query('DROP INDEX ft_page_search_title ON page_search');
        await queryRunner.query(
          'ALTER TABLE page_search DROP COLUMN title_grams, DROP COLUMN body_grams',
        );
        await queryRunner.query(
          'CREATE FULLTEXT INDEX ft_page_search_all ON page_search (title, body, tags)',
        );
        await queryRunner.query(
          'CREATE FULLTEXT INDEX ft_page_search_title ON page_search (title)',
        );
      } finally {
        await queryRunner.query('SET SESSION innodb_ft_enable_stopword = DEFAULT');
      }
      return;
    }
    await queryRunner.query('DROP TABLE page_search_vocab');
    await queryRunner.query(
      `CREATE VIRTUAL TABLE page_search_next USING fts5(page_id UNINDEXED, title, body, tags, ${TOKENIZER})`,
    );
    await queryRunner.query(
      'INSERT INTO page_search_next (rowid, page_id, title, body, tags) ' +
        'SELECT rowid, page_id, title, body, tags FROM page_search',
    );
    await queryRunner.query('DROP TABLE page_search');
    await queryRunner.query('ALTER TABLE page_search_next RENAME TO page_search');
  }
}

/** Computes the grams of every index row, a batch at a time (rows without any stay empty). */
async function fillGrams(
  queryRunner: QueryRunner,
  select: string,
  start: string | number,
  update: string,
  minTokenSize: number,
): Promise<void> {
  let after = start;
  for (;;) {
    const rows = (await queryRunner.query(select, [after, BATCH])) as IndexRow[];
    for (const row of rows) {
      const titleGrams = gramsOf(row.title ?? '', { minTokenSize });
      const bodyGrams = gramsOf(`${row.body ?? ''} ${row.tags ?? ''}`, { minTokenSize });
      if (titleGrams !== '' || bodyGrams !== '' || minTokenSize > 0)
        await queryRunner.query(update, [titleGrams, bodyGrams, row.key]);
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].key;
  }
}
