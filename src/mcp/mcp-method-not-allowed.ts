import { Injectable, NestMiddleware } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Problem } from '../common/problems/problem';
import { buildProblemBody, resolveProblem, sendProblem } from '../common/problems/problem-response';

/**
 * GET /mcp (a server-to-client event stream) and DELETE /mcp (ending an MCP session): this
 * server is stateless and has neither, so it answers 405 as the Streamable HTTP transport
 * allows. A middleware, not a route: there is nothing to authorise and nothing to describe.
 */
@Injectable()
export class McpMethodNotAllowed implements NestMiddleware {
  use(req: Request, res: Response): void {
    const problem = resolveProblem(
      new Problem(
        405,
        'method_not_allowed',
        'This MCP server is stateless: send JSON-RPC messages with POST.',
        {},
        { Allow: 'POST' },
      ),
      req,
    );
    sendProblem(res, problem, buildProblemBody(problem, req));
  }
}
