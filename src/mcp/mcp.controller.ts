import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { TokenVerb } from '../common/auth/token-scope';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/route-policy';
import { ApiSentResult } from '../common/openapi/api-result.decorator';
import { MCP_MESSAGE_BODY, McpResponse } from './mcp.dto';
import { McpService } from './mcp.service';

/**
 * The MCP endpoint (Streamable HTTP). Authenticated like every /api route by the global guard:
 * a session or a personal access token now; OAuth access tokens (issue 34 item 2) will arrive
 * through the same guard, and the 401 challenge will then name the protected resource
 * metadata. GET and DELETE /mcp answer 405 (McpMethodNotAllowed): the server is stateless.
 */
@ApiTags('mcp')
@TokenVerb('call')
@Controller('mcp')
export class McpController {
  constructor(private readonly mcp: McpService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Model Context Protocol (Streamable HTTP, stateless): one JSON-RPC message per POST',
    description:
      'Tools search_pages, read_page, list_recent, list_tree, list_backlinks, create_page and update_page; resources kb://pages/{slug}. Tools run as the caller; a kb problem is a tool result with isError and the problem document as its text.',
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
}
