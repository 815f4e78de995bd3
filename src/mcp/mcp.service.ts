import { Injectable, Logger } from '@nestjs/common';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { ChangeRequestsService } from '../change-requests/public-api';
import type { AuthUser } from '../common/auth/auth-user';
import { requirePermission, type TokenPermission } from '../common/auth/token-scope';
import type { ProblemBody } from '../common/problems/problem';
import { buildProblemBody, resolveProblem } from '../common/problems/problem-response';
import { McpPagesService } from './mcp-pages.service';
import {
  addCommentInput,
  backlinksOutput,
  commentOutput,
  createPageInput,
  listBacklinksInput,
  listRecentInput,
  listTreeInput,
  pageListOutput,
  pageOutput,
  readPageInput,
  searchOutput,
  searchPagesInput,
  treeOutput,
  movePageInput,
  moveOutput,
  updatePageInput,
  changeRequestOutput,
  proposeChangeInput,
} from './mcp-schemas';

const logger = new Logger('Mcp');
const PAGE_URI_PREFIX = 'kb://pages/';

/**
 * `kb://pages/{slug}`. RFC 6570 simple expansion percent-encodes the `/` of a nested slug
 * (`kb://pages/guides%2Fsetup`), which the SDK's matcher handles; clients also write the slug
 * as it is (`kb://pages/guides/setup`), so everything after the prefix is the slug.
 */
class PageUriTemplate extends UriTemplate {
  constructor() {
    super(`${PAGE_URI_PREFIX}{slug}`);
  }

  override match(uri: string): Record<string, string> | null {
    if (!uri.startsWith(PAGE_URI_PREFIX) || uri.length === PAGE_URI_PREFIX.length) return null;
    return { slug: uri.slice(PAGE_URI_PREFIX.length) };
  }
}

function slugOfUri(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The MCP server at /mcp (Streamable HTTP, stateless: every POST carries its own JSON-RPC
 * exchange, so no MCP session outlives the request that is authenticated by kb's guard). A
 * server is built per request for the caller, so every tool runs as that caller.
 */
@Injectable()
export class McpService {
  constructor(
    private readonly pages: McpPagesService,
    private readonly changeRequests: ChangeRequestsService,
  ) {}

  async handle(req: Request, res: Response, user: AuthUser): Promise<void> {
    const server = this.serverFor(user, req);
    // enableJsonResponse: answers are single JSON documents (no tool streams progress yet).
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  private serverFor(user: AuthUser, req: Request): McpServer {
    const server = new McpServer(
      { name: 'kb', version: '1' },
      { capabilities: { tools: {}, resources: {} } },
    );
    const run = async <T>(
      verb: TokenPermission,
      work: () => Promise<T>,
    ): Promise<CallToolResult> => {
      try {
        // A verb-limited token: each tool needs the verb its REST route would need.
        requirePermission(user, verb);
        const result = (await work()) as Record<string, unknown>;
        return {
          structuredContent: result,
          content: [{ type: 'text', text: JSON.stringify(result) }],
        };
      } catch (error) {
        return toolError(error, req);
      }
    };
    const read = { readOnlyHint: true, openWorldHint: false };
    server.registerTool(
      'search_pages',
      {
        title: 'Search pages',
        description:
          'Ranked full-text search over the titles, content and tags of the pages you may see. Every word must match; the last also as a prefix. `snippet` is HTML with hits in <mark>.',
        inputSchema: searchPagesInput,
        outputSchema: searchOutput,
        annotations: read,
      },
      (args) => run('read', () => this.pages.search(user, args)),
    );
    server.registerTool(
      'read_page',
      {
        title: 'Read a page',
        description:
          "A page's Markdown (`content`), metadata, `revision` (pass it to update_page as baseRevision), rendered HTML and backlinks.",
        inputSchema: readPageInput,
        outputSchema: pageOutput,
        annotations: read,
      },
      (args) => run('read', () => this.pages.read(user, args.slug)),
    );
    server.registerTool(
      'list_recent',
      {
        title: 'Recently updated pages',
        description: 'Pages you may see, most recently updated first; optionally with one tag.',
        inputSchema: listRecentInput,
        outputSchema: pageListOutput,
        annotations: read,
      },
      (args) => run('read', () => this.pages.listRecent(user, args)),
    );
    server.registerTool(
      'list_tree',
      {
        title: 'Browse the page tree',
        description:
          'One level of the page tree: the slug segments below `parent` (or the top level), by name.',
        inputSchema: listTreeInput,
        outputSchema: treeOutput,
        annotations: read,
      },
      (args) => run('read', () => this.pages.listTree(user, args)),
    );
    server.registerTool(
      'list_backlinks',
      {
        title: 'Pages linking here',
        description: 'The pages you may see that link to a page, by title.',
        inputSchema: listBacklinksInput,
        outputSchema: backlinksOutput,
        annotations: read,
      },
      (args) => run('read', () => this.pages.backlinks(user, args.slug)),
    );
    server.registerTool(
      'create_page',
      {
        title: 'Create a page',
        description: 'Creates a page (editors and admins; a read-only token cannot).',
        inputSchema: createPageInput,
        outputSchema: pageOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
      (args) => run('write', () => this.pages.create(user, args)),
    );
    server.registerTool(
      'update_page',
      {
        title: 'Update a page',
        description:
          'Changes the fields given. `baseRevision` is the revision you read; if the page changed since, the tool fails with `revision_conflict` and `currentRevision`: read the page again, merge, and retry.',
        inputSchema: updatePageInput,
        outputSchema: pageOutput,
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      },
      (args) => run('write', () => this.pages.update(user, args)),
    );
    server.registerTool(
      'move_page',
      {
        title: 'Move a page',
        description:
          'Gives a page (or, with `subtree`, a folder) a new slug in one transaction; the old slugs become redirects. A taken target fails with `slug_taken` naming every taken slug; `dryRun` answers what would move.',
        inputSchema: movePageInput,
        outputSchema: moveOutput,
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      },
      (args) => run('write', () => this.pages.move(user, args)),
    );
    server.registerTool(
      'add_comment',
      {
        title: 'Comment on a page',
        description:
          "Adds a comment to a page you may read, as you: a thread, an inline thread on `quote` (a passage of the page's text), or a reply (`parentId`). Mentions of people who may not read the page are refused with `mention_not_allowed`.",
        inputSchema: addCommentInput,
        outputSchema: commentOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
      (args) => run('comment', () => this.pages.addComment(user, args)),
    );
    server.registerTool(
      'propose_change',
      {
        title: 'Propose changes for review',
        description:
          'Proposes edits, new pages, moves or binning as one change request that people review and merge (anyone signed in; under protected paths the only way for editors). Answers the request with its `url` in the console.',
        inputSchema: proposeChangeInput,
        outputSchema: changeRequestOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
      (args) => run('write', () => this.changeRequests.create(args, user)),
    );
    server.registerResource(
      'page',
      new ResourceTemplate(new PageUriTemplate(), { list: undefined }),
      { title: 'A page', description: "A page's Markdown as stored", mimeType: 'text/markdown' },
      async (uri, variables) => {
        const slug = slugOfUri(String(variables.slug));
        try {
          requirePermission(user, 'read');
        } catch (error) {
          throw resourceError(error, req);
        }
        const page = await this.pages.markdown(user, slug).catch((error: unknown) => {
          throw resourceError(error, req);
        });
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: 'text/markdown',
              text: page.content,
              _meta: { revision: page.revision },
            },
          ],
        };
      },
    );
    return server;
  }
}

/** The problem document of what a tool or a resource read threw; unexpected errors are logged. */
function problemOf(error: unknown, req: Request): { status: number; body: ProblemBody } {
  const problem = resolveProblem(error, req);
  const body = buildProblemBody(problem, req);
  if (problem.unexpected) {
    const stack = error instanceof Error ? error.stack : String(error);
    logger.error({ msg: 'unhandled error in an MCP call', requestId: body.requestId, stack });
  }
  return { status: problem.status, body };
}

/**
 * A kb problem as an MCP tool error (`isError`), so the model sees it and can act on it: the
 * text is the problem document (code, status, detail and its members such as
 * `currentRevision`). Unexpected errors answer the generic 500 problem.
 */
function toolError(error: unknown, req: Request): CallToolResult {
  const { body } = problemOf(error, req);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** MCP's "resource not found" JSON-RPC code; other problems answer as invalid requests. */
const RESOURCE_NOT_FOUND = -32002;
const INVALID_REQUEST = -32600;

/** A kb problem on a resource read as a JSON-RPC error, the problem document as its data. */
function resourceError(error: unknown, req: Request): McpError {
  const { status, body } = problemOf(error, req);
  const code = status === 404 ? RESOURCE_NOT_FOUND : INVALID_REQUEST;
  return new McpError(code, `${body.code}: ${body.detail}`, body);
}
