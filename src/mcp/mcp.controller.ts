import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { TokenVerb } from '../common/auth/token-scope';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/route-policy';
import { ApiFileResult, ApiSentResult } from '../common/openapi/api-result.decorator';
import { MCP_MESSAGE_BODY, McpResponse } from './mcp.dto';
import { McpService } from './mcp.service';

/**
 * The MCP endpoint (Streamable HTTP). Authenticated like every /api route by the global guard:
 * a session or a personal access token now; OAuth access tokens (issue 34 item 2) will arrive
 * through the same guard, and the 401 challenge will then name the protected resource
 * metadata. GET (the session's stream of server messages: resource change notifications) and
 * DELETE (end the session) need the Mcp-Session-Id of the caller's own session; without one
 * they answer 405.
 */
@ApiTags('mcp')
@TokenVerb('call')
@Controller('mcp')
export class McpController {
  constructor(private readonly mcp: McpService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Model Context Protocol (Streamable HTTP): one JSON-RPC message per POST',
    description:
      'Tools search_pages, read_page, list_recent, list_tree, list_backlinks, create_page, update_page, move_page, add_comment and propose_change (administrators choose which: /api/mcp/settings); resources kb://pages/{slug} with subscriptions. initialize starts a session (Mcp-Session-Id). Tools run as the caller; a kb problem is a tool result with isError and the problem document as its text. 404 `mcp_disabled` when an administrator turned the server off.',
  })
  @ApiBody(MCP_MESSAGE_BODY)
  @ApiSentResult(McpResponse, {
    description: 'the JSON-RPC answer; 202 without a body for a notification',
  })
  postMcpMessage(
    @Req() req: Request,
    @Res() res: Response,
    @CurrentUser() user: AuthUser,
  ): Promise<void> {
    return this.mcp.handle(req, res, user);
  }

  @Get()
  @ApiOperation({
    summary: "An MCP session's stream of server messages (Server-Sent Events)",
    description:
      'Needs the Mcp-Session-Id header of a session the caller initialised (404 `mcp_session_not_found` otherwise, 405 without it). Carries notifications/resources/updated for subscribed pages.',
  })
  @ApiSentResult(McpResponse, { description: 'text/event-stream of JSON-RPC messages' })
  openMcpStream(
    @Req() req: Request,
    @Res() res: Response,
    @CurrentUser() user: AuthUser,
  ): Promise<void> {
    return this.mcp.handle(req, res, user);
  }

  @Delete()
  @ApiOperation({
    summary: 'End an MCP session',
    description: 'Needs the Mcp-Session-Id header of a session the caller initialised.',
  })
  @ApiFileResult({ '*/*': 'binary' }, { description: 'the session ended (200, no body)' })
  endMcpSession(
    @Req() req: Request,
    @Res() res: Response,
    @CurrentUser() user: AuthUser,
  ): Promise<void> {
    return this.mcp.handle(req, res, user);
  }
}
