import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../common/auth/route-policy';
import { ApiResult } from '../common/openapi/api-result.decorator';
import { McpSessions } from './mcp-sessions';
import { McpSettingsDto, McpSettingsResponse, McpSettingsService } from './mcp-settings';

/** The administrators' switch for the MCP server and its tools (docs/mcp.md). */
@ApiTags('mcp')
@AdminOnly()
@Controller('api/mcp/settings')
export class McpSettingsController {
  constructor(
    private readonly settings: McpSettingsService,
    private readonly sessions: McpSessions,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Whether the MCP server is on and which tools it offers (admin)' })
  @ApiResult(McpSettingsResponse)
  getMcpSettings(): Promise<McpSettingsResponse> {
    return this.settings.read();
  }

  @Put()
  @ApiOperation({
    summary: 'Turn the MCP server on or off and choose its tools (admin)',
    description:
      'Off: /mcp answers 404 `mcp_disabled` and this process ends its MCP sessions. A tool left out is not listed and a call to it fails (`tool_disabled`). Members not sent keep their value.',
  })
  @ApiResult(McpSettingsResponse)
  async putMcpSettings(
    @CurrentUser() user: AuthUser,
    @Body() body: McpSettingsDto,
  ): Promise<McpSettingsResponse> {
    const answer = await this.settings.replace(body, user.id);
    if (!answer.enabled) await this.sessions.closeAll();
    return answer;
  }
}
