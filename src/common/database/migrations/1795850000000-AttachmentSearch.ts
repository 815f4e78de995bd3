import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns, references } from '../migration-helpers';

const TOKENIZER = "tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'";
const GENERATION_EVENTS = ['INSERT', 'UPDATE', 'DELETE'];

/**
 * Search in attached documents (docs/search.md "Attachments"): `attachment_texts` says, per
 * attachment, where the extraction of its text stands (`extracting`, `indexed`, `failed`,
 * `unsupported`), and `attachment_search` holds the text, with the columns of `page_search`
 * (the file name as the title), so a query compiles the same way for both. SQLite: an FTS5
 * table found by `attachment_texts.fts_rowid`, and triggers counting `search_generation` up
 * when `attachment_texts` changes (the read pool's search cache); MySQL/MariaDB: an InnoDB
 * table with the same FULLTEXT indexes as `page_search`. A deleted media row takes its
 * `attachment_texts` row with it (the index row is then never joined, and swept later).
 */
export class AttachmentSearch1795850000000 implements MigrationInterface {
  name = 'AttachmentSearch1795850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'attachment_texts',
        columns: [
          { ...c.uuid('media_id'), isPrimary: true },
          c.string('status', 16),
          c.int('chars', false, 0),
          c.string('detail', 255, true),
          c.bigint('fts_rowid', true),
          c.datetime('updated_at'),
        ],
        indices: [{ name: 'idx_attachment_texts_status', columnNames: ['status', 'updated_at'] }],
        foreignKeys: [references('media_id', 'media')],
      }),
    );
    if (!c.mysql) {
      await queryRunner.query(
        'CREATE VIRTUAL TABLE attachment_search USING fts5(media_id UNINDEXED, title, body, ' +
          `tags, title_grams, body_grams, ${TOKENIZER})`,
      );
      for (const event of GENERATION_EVENTS) {
        await queryRunner.query(
          `CREATE TRIGGER ${triggerName(event)} AFTER ${event} ON attachment_texts ` +
            'BEGIN UPDATE search_generation SET n = n + 1 WHERE id = 1; END',
        );
      }
      return;
    }
    await queryRunner.createTable(
      new Table({
        name: 'attachment_search',
        columns: [
          { ...c.uuid('media_id'), isPrimary: true },
          c.string('title', 255),
          c.text('body'),
          c.text('tags'),
          c.text('title_grams', true),
          c.text('body_grams', true),
        ],
      }),
    );
    await queryRunner.query('SET SESSION innodb_ft_enable_stopword = OFF');
    try {
      await queryRunner.query(
        'CREATE FULLTEXT INDEX ft_attachment_search_all ON attachment_search ' +
          '(title, body, tags, title_grams, body_grams)',
      );
      await queryRunner.query(
        'CREATE FULLTEXT INDEX ft_attachment_search_title ON attachment_search (title, title_grams)',
      );
      await queryRunner.query(
        'CREATE FULLTEXT INDEX ft_attachment_search_tags ON attachment_search (tags)',
      );
    } finally {
      await queryRunner.query('SET SESSION innodb_ft_enable_stopword = DEFAULT');
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (!columns(queryRunner).mysql) {
      for (const event of GENERATION_EVENTS)
        await queryRunner.query(`DROP TRIGGER ${triggerName(event)}`);
    }
    await queryRunner.query('DROP TABLE attachment_search');
    await queryRunner.dropTable('attachment_texts');
  }
}

function triggerName(event: string): string {
  return `trg_search_generation_attachment_texts_${event.toLowerCase()}`;
}
