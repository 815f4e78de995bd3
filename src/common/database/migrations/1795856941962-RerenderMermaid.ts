import { MigrationInterface, QueryRunner } from 'typeorm';

const MERMAID_FENCES = ['%```mermaid%', '%~~~mermaid%'];

/**
 * The renderer now draws Mermaid fences (they were shown as source with a note). Pages
 * holding one have their HTML cleared, and the first read renders and stores it again, as
 * RerenderDiagrams did for Graphviz.
 */
export class RerenderMermaid1795856941962 implements MigrationInterface {
  name = 'RerenderMermaid1795856941962';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'UPDATE pages SET html = NULL WHERE html IS NOT NULL AND (content LIKE ? OR content LIKE ?)',
      MERMAID_FENCES,
    );
  }

  async down(): Promise<void> {
    // Nothing to undo: an older renderer renders a page without HTML on its first read too.
  }
}
