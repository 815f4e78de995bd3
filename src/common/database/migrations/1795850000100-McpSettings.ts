import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * The administrators' MCP settings (issue 34): one row, id 1. `enabled` turns the server at
 * /mcp off without a restart; `tools` (JSON array, NULL: every tool) is what it offers.
 * No row: on, every tool.
 */
export class McpSettings1795850000100 implements MigrationInterface {
  name = 'McpSettings1795850000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'mcp_settings',
        columns: [
          { ...c.int('id'), isPrimary: true },
          c.bool('enabled', true),
          c.json('tools', true),
          c.datetime('updated_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('mcp_settings');
  }
}
