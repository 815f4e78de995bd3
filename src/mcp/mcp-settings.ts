import { Injectable } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsBoolean, IsIn } from 'class-validator';
import { InjectConfig } from '../common/config/app-config';
import type { McpConfig } from '../common/config/mcp-config';
import { Database } from '../common/database/database';
import { audit } from '../common/logging/audit';
import { Optional } from '../common/problems/optional';
import { Problem } from '../common/problems/problem';

/** Every tool the server has, in the order tools/list answers them. */
export const MCP_TOOLS = [
  'search_pages',
  'read_page',
  'list_recent',
  'list_tree',
  'list_backlinks',
  'create_page',
  'update_page',
  'move_page',
  'add_comment',
  'propose_change',
] as const;
export type McpToolName = (typeof MCP_TOOLS)[number];

export class McpSettingsResponse {
  @ApiProperty({
    description:
      'Whether /mcp answers (an administrator may turn it off; off: 404 `mcp_disabled`).',
  })
  enabled: boolean;

  @ApiProperty({ enum: MCP_TOOLS, isArray: true, description: 'The tools the server offers.' })
  tools: McpToolName[];

  @ApiProperty({ enum: MCP_TOOLS, isArray: true, description: 'Every tool there is.' })
  available: McpToolName[];

  @ApiProperty({
    description:
      'MCP_ENABLED: false means the server is not mounted at all, whatever `enabled` says.',
  })
  configured: boolean;
}

export class McpSettingsDto {
  @ApiPropertyOptional({ description: 'turn the server at /mcp on or off' })
  @Optional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    enum: MCP_TOOLS,
    isArray: true,
    description: 'the tools to offer (an empty list offers none)',
  })
  @Optional()
  @IsArray()
  @ArrayUnique()
  @IsIn(MCP_TOOLS, { each: true })
  tools?: McpToolName[];
}

interface Settings {
  enabled: boolean;
  tools: McpToolName[];
}

/**
 * The administrators' MCP settings (table `mcp_settings`, one row; none: on, every tool).
 * Read from the database on each MCP request (one primary-key read), so every process of a
 * cluster follows a change at once.
 */
@Injectable()
export class McpSettingsService {
  constructor(
    private readonly db: Database,
    @InjectConfig('mcp') private readonly mcpConfig: McpConfig,
  ) {}

  async current(): Promise<Settings> {
    const [row] = await this.db
      .sql()
      .all<{ enabled: number | boolean | string; tools: string | null }>(
        'SELECT enabled, tools FROM mcp_settings WHERE id = 1',
      );
    if (!row) return { enabled: true, tools: [...MCP_TOOLS] };
    const chosen = row.tools === null ? null : (JSON.parse(row.tools) as string[]);
    return {
      enabled: Boolean(Number(row.enabled)),
      tools: MCP_TOOLS.filter((tool) => chosen === null || chosen.includes(tool)),
    };
  }

  async read(): Promise<McpSettingsResponse> {
    return this.answer(await this.current());
  }

  async replace(input: McpSettingsDto, actorId: string): Promise<McpSettingsResponse> {
    const before = await this.current();
    const next: Settings = {
      enabled: input.enabled ?? before.enabled,
      tools: input.tools ? MCP_TOOLS.filter((t) => input.tools!.includes(t)) : before.tools,
    };
    await this.db.transaction(async ({ sql }) => {
      await sql.run('DELETE FROM mcp_settings WHERE id = 1');
      await sql.run(
        'INSERT INTO mcp_settings (id, enabled, tools, updated_at) VALUES (1, ?, ?, ?)',
        [next.enabled, JSON.stringify(next.tools), new Date()],
      );
    });
    audit('mcp.settings.changed', {
      actorId,
      target: 'mcp',
      enabled: next.enabled,
      tools: next.tools,
    });
    return this.answer(next);
  }

  /** 404 `mcp_disabled` when an administrator turned the server off. */
  async requireEnabled(): Promise<Settings> {
    const settings = await this.current();
    if (!settings.enabled)
      throw new Problem(404, 'mcp_disabled', 'An administrator turned the MCP server off.');
    return settings;
  }

  private answer(settings: Settings): McpSettingsResponse {
    return { ...settings, available: [...MCP_TOOLS], configured: this.mcpConfig.enabled };
  }
}
