import { MigrationInterface, QueryRunner } from 'typeorm';
import { columns } from '../migration-helpers';

const FTS_COLUMNS = 'page_id UNINDEXED, title, body, tags';
const TOKENIZER = "tokenize = 'unicode61 remove_diacritics 2'";

/**
 * Search matches the last word as a prefix (search as you type). FTS5 answers a prefix query
 * by merging the doclists of every word it expands to, so `ro*` at 100,000 pages would merge
 * thousands; with a prefix index for 2 and 3 characters it reads one precomputed doclist, as a
 * plain word does. Longer prefixes expand to few words. An FTS5 table's options cannot be
 * changed, so the table is rebuilt with the same rowids (search_rowids stays valid).
 * MySQL/MariaDB: InnoDB has no prefix index to add (docs/search.md).
 */
export class SearchPrefixIndex1763838026000 implements MigrationInterface {
  name = 'SearchPrefixIndex1763838026000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (columns(queryRunner).mysql) return;
    await this.rebuild(queryRunner, `, prefix = '2 3'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (columns(queryRunner).mysql) return;
    await this.rebuild(queryRunner, '');
  }

  private async rebuild(queryRunner: QueryRunner, options: string): Promise<void> {
    await queryRunner.query(
      `CREATE VIRTUAL TABLE page_search_next USING fts5(${FTS_COLUMNS}, ${TOKENIZER}${options})`,
    );
    await queryRunner.query(
      'INSERT INTO page_search_next (rowid, page_id, title, body, tags) ' +
        'SELECT rowid, page_id, title, body, tags FROM page_search',
    );
    await queryRunner.query('DROP TABLE page_search');
    await queryRunner.query('ALTER TABLE page_search_next RENAME TO page_search');
  }
}
