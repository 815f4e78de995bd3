import { MigrationInterface, QueryRunner } from 'typeorm';

/** The fences that are now drawn (Graphviz) or shown with a note (Mermaid). */
const DIAGRAM_FENCES = ['dot', 'graphviz', 'mermaid'].flatMap((language) => [
  `%\`\`\`${language}%`,
  `%~~~${language}%`,
]);

/**
 * The renderer now draws Graphviz fences and notes why Mermaid ones are shown as source.
 * Pages holding such a fence had it stored as plain code: their HTML is cleared, and the
 * first read renders and stores it again (RerenderRichContent does the same for all pages).
 */
export class RerenderDiagrams1795834500000 implements MigrationInterface {
  name = 'RerenderDiagrams1795834500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const holds = DIAGRAM_FENCES.map(() => 'content LIKE ?').join(' OR ');
    await queryRunner.query(
      `UPDATE pages SET html = NULL WHERE html IS NOT NULL AND (${holds})`,
      DIAGRAM_FENCES,
    );
  }

  async down(): Promise<void> {
    // Nothing to undo: an older renderer renders a page without HTML on its first read too.
  }
}
