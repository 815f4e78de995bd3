import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * Synonyms administrators keep for search (`PUT /api/search/synonyms`): one row per set of
 * words that mean the same (`["k8s", "kubernetes"]`), applied when a query is read.
 */
export class SearchSynonyms1795843436876 implements MigrationInterface {
  name = 'SearchSynonyms1795843436876';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'search_synonyms',
        columns: [{ ...c.int('position'), isPrimary: true }, c.text('terms')],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('search_synonyms');
  }
}
