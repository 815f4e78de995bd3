import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The renderer now highlights code, typesets math and renders footnotes, `[[toc]]`, collapsible
 * sections and emoji shortcodes. Stored HTML is what a page read answers, so pages rendered
 * before would keep their old HTML until their next edit: their HTML is cleared, and the first
 * read renders and stores it again, as it does for an imported page.
 */
export class RerenderRichContent1795834442844 implements MigrationInterface {
  name = 'RerenderRichContent1795834442844';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('UPDATE pages SET html = NULL WHERE html IS NOT NULL');
  }

  async down(): Promise<void> {
    // Nothing to undo: an older renderer renders a page without HTML on its first read too.
  }
}
