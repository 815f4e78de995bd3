import { MigrationInterface, QueryRunner } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * What a search answer depends on: the pages (text, title, tags, liveness), their groups, the
 * groups' names and the search index. SQLite triggers count `search_generation.n` up in the
 * very transaction that changes any of them (whatever code path writes, foreign-key cascades
 * included), so the read pool's search cache (store/search/search-pages.ts) is emptied by
 * exactly those commits and no longer by every commit to the file (`PRAGMA data_version`):
 * the rate counters' sync every second, sessions, tokens and jobs left it empty under any
 * load. FTS5 tables take no triggers; `search_rowids` changes with every index row.
 * MySQL/MariaDB keep no search cache: nothing to do there.
 */
const WATCHED: Record<string, string[]> = {
  pages: ['INSERT', 'UPDATE', 'DELETE'],
  page_groups: ['INSERT', 'UPDATE', 'DELETE'],
  access_groups: ['INSERT', 'UPDATE', 'DELETE'],
  search_rowids: ['INSERT', 'UPDATE', 'DELETE'],
};

function triggerName(table: string, event: string): string {
  return `trg_search_generation_${table}_${event.toLowerCase()}`;
}

export class SearchGeneration1763838000200 implements MigrationInterface {
  name = 'SearchGeneration1763838000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (columns(queryRunner).mysql) return;
    await queryRunner.query(
      'CREATE TABLE search_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)',
    );
    await queryRunner.query('INSERT INTO search_generation (id, n) VALUES (1, 0)');
    for (const [table, events] of Object.entries(WATCHED)) {
      for (const event of events) {
        await queryRunner.query(
          `CREATE TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table} ` +
            'BEGIN UPDATE search_generation SET n = n + 1 WHERE id = 1; END',
        );
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (columns(queryRunner).mysql) return;
    for (const [table, events] of Object.entries(WATCHED)) {
      for (const event of events)
        await queryRunner.query(`DROP TRIGGER ${triggerName(table, event)}`);
    }
    await queryRunner.query('DROP TABLE search_generation');
  }
}
