import { Injectable, Logger } from '@nestjs/common';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  isInitializeRequest,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { ChangeRequestsService } from '../change-requests/public-api';
import type { AuthUser } from '../common/auth/auth-user';
import { requirePermission, type TokenPermission } from '../common/auth/token-scope';
import { Problem, type ProblemBody } from '../common/problems/problem';
import { normaliseSlug } from '../pages/public-api';
import { McpSession, McpSessions } from './mcp-sessions';
import { McpSettingsService, type McpToolName } from './mcp-settings';
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

/** What a server's tools read on each call: the caller and request of the current request. */
interface CallContext {
  user: AuthUser;
  req: Request;
  /** The tools the administrators offer now. */
  tools: readonly McpToolName[];
  session?: McpSession;
}

/**
 * The MCP server at /mcp (Streamable HTTP). An `initialize` starts a session (Mcp-Session-Id):
 * its client may open GET /mcp for server-to-client messages and subscribe to pages
 * (`resources/subscribe`), ended by DELETE /mcp or after MCP_SESSION_IDLE_MS idle. A POST
 * without a session id that is not an `initialize` is answered statelessly. Every request is
 * authenticated by kb's guard and every tool runs as the caller of that request.
 */
@Injectable()
export class McpService {
  constructor(
    private readonly pages: McpPagesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly sessions: McpSessions,
    private readonly settings: McpSettingsService,
  ) {}

  async handle(req: Request, res: Response, user: AuthUser): Promise<void> {
    const { tools } = await this.settings.requireEnabled();
    const sessionId = req.get('mcp-session-id');
    if (sessionId !== undefined) {
      const session = this.sessions.find(sessionId, user);
      Object.assign(session.context, { user, req, tools });
      await session.transport.handleRequest(req, res, req.body);
      return;
    }
    if (req.method === 'POST' && isInitializeRequest(req.body)) {
      await this.startSession(req, res, user, tools);
      return;
    }
    if (req.method !== 'POST') throw methodNotAllowed();
    const context: CallContext = { user, req, tools };
    const server = this.serverFor(context);
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

  private async startSession(
    req: Request,
    res: Response,
    user: AuthUser,
    tools: readonly McpToolName[],
  ): Promise<void> {
    const context: CallContext = { user, req, tools };
    const server = this.serverFor(context);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        const session = {
          id,
          user,
          transport,
          server,
          subscriptions: new Map<string, string>(),
          lastActive: Date.now(),
          context,
        };
        context.session = session;
        this.sessions.add(session);
      },
      onsessionclosed: (id) => this.sessions.forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.forget(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  private serverFor(context: CallContext): McpServer {
    const server = new McpServer(
      { name: 'kb', version: '1' },
      { capabilities: { tools: {}, resources: { subscribe: true } } },
    );
    const offered = new Set(context.tools);
    const run = async <T>(
      verb: TokenPermission,
      work: (user: AuthUser) => Promise<T>,
    ): Promise<CallToolResult> => {
      const { req } = context;
      try {
        // A verb-limited token: each tool needs the verb its REST route would need.
        requirePermission(context.user, verb);
        const result = (await work(context.user)) as Record<string, unknown>;
        return {
          structuredContent: result,
          content: [{ type: 'text', text: JSON.stringify(result) }],
        };
      } catch (error) {
        return toolError(error, req);
      }
    };
    const registerTool: McpServer['registerTool'] = (name, config, callback) => {
      if (!offered.has(name as McpToolName)) return undefined as never;
      const guarded = ((args: unknown, extra: unknown) =>
        context.tools.includes(name as McpToolName)
          ? (callback as (a: unknown, e: unknown) => unknown)(args, extra)
          : toolError(
              new Problem(404, 'tool_disabled', `An administrator turned the tool ${name} off.`),
              context.req,
            )) as typeof callback;
      return server.registerTool(name, config, guarded);
    };
    const read = { readOnlyHint: true, openWorldHint: false };
    registerTool(
      'search_pages',
      {
        title: 'Search pages',
        description:
          'Ranked full-text search over the titles, content and tags of the pages you may see. Every word must match; the last also as a prefix. `snippet` is HTML with hits in <mark>.',
        inputSchema: searchPagesInput,
        outputSchema: searchOutput,
        annotations: read,
      },
      (args) => run('read', (user) => this.pages.search(user, args)),
    );
    registerTool(
      'read_page',
      {
        title: 'Read a page',
        description:
          "A page's Markdown (`content`), metadata, `revision` (pass it to update_page as baseRevision), rendered HTML and backlinks.",
        inputSchema: readPageInput,
        outputSchema: pageOutput,
        annotations: read,
      },
      (args) => run('read', (user) => this.pages.read(user, args.slug)),
    );
    registerTool(
      'list_recent',
      {
        title: 'Recently updated pages',
        description: 'Pages you may see, most recently updated first; optionally with one tag.',
        inputSchema: listRecentInput,
        outputSchema: pageListOutput,
        annotations: read,
      },
      (args) => run('read', (user) => this.pages.listRecent(user, args)),
    );
    registerTool(
      'list_tree',
      {
        title: 'Browse the page tree',
        description:
          'One level of the page tree: the slug segments below `parent` (or the top level), by name.',
        inputSchema: listTreeInput,
        outputSchema: treeOutput,
        annotations: read,
      },
      (args) => run('read', (user) => this.pages.listTree(user, args)),
    );
    registerTool(
      'list_backlinks',
      {
        title: 'Pages linking here',
        description: 'The pages you may see that link to a page, by title.',
        inputSchema: listBacklinksInput,
        outputSchema: backlinksOutput,
        annotations: read,
      },
      (args) => run('read', (user) => this.pages.backlinks(user, args.slug)),
    );
    registerTool(
      'create_page',
      {
        title: 'Create a page',
        description: 'Creates a page (editors and admins; a read-only token cannot).',
        inputSchema: createPageInput,
        outputSchema: pageOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
      (args) => run('write', (user) => this.pages.create(user, args)),
    );
    registerTool(
      'update_page',
      {
        title: 'Update a page',
        description:
          'Changes the fields given. `baseRevision` is the revision you read; if the page changed since, the tool fails with `revision_conflict` and `currentRevision`: read the page again, merge, and retry.',
        inputSchema: updatePageInput,
        outputSchema: pageOutput,
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      },
      (args) => run('write', (user) => this.pages.update(user, args)),
    );
    registerTool(
      'move_page',
      {
        title: 'Move a page',
        description:
          'Gives a page (or, with `subtree`, a folder) a new slug in one transaction; the old slugs become redirects. A taken target fails with `slug_taken` naming every taken slug; `dryRun` answers what would move.',
        inputSchema: movePageInput,
        outputSchema: moveOutput,
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      },
      (args) => run('write', (user) => this.pages.move(user, args)),
    );
    registerTool(
      'add_comment',
      {
        title: 'Comment on a page',
        description:
          "Adds a comment to a page you may read, as you: a thread, an inline thread on `quote` (a passage of the page's text), or a reply (`parentId`). Mentions of people who may not read the page are refused with `mention_not_allowed`.",
        inputSchema: addCommentInput,
        outputSchema: commentOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
      (args) => run('comment', (user) => this.pages.addComment(user, args)),
    );
    registerTool(
      'propose_change',
      {
        title: 'Propose changes for review',
        description:
          'Proposes edits, new pages, moves or binning as one change request that people review and merge (anyone signed in; under protected paths the only way for editors). Answers the request with its `url` in the console.',
        inputSchema: proposeChangeInput,
        outputSchema: changeRequestOutput,
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
      (args) => run('write', (user) => this.changeRequests.create(args, user)),
    );
    server.registerResource(
      'page',
      new ResourceTemplate(new PageUriTemplate(), { list: undefined }),
      { title: 'A page', description: "A page's Markdown as stored", mimeType: 'text/markdown' },
      async (uri, variables) => {
        const slug = slugOfUri(String(variables.slug));
        const page = await this.readable(context, slug);
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
    server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      const { session } = context;
      if (!session)
        throw new McpError(INVALID_REQUEST, 'Subscriptions need a session: initialise first.');
      const slug = slugOfPageUri(request.params.uri);
      if (slug === null)
        throw new McpError(RESOURCE_NOT_FOUND, `Not a page: ${request.params.uri}`);
      // Only a page the caller may read now can be subscribed to.
      await this.readable(context, slug);
      await this.sessions.subscribe(session, normaliseSlug(slug), request.params.uri);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      const slug = slugOfPageUri(request.params.uri);
      if (context.session && slug !== null)
        this.sessions.unsubscribe(context.session, normaliseSlug(slug));
      return {};
    });
    return server;
  }

  /** A page's Markdown if the caller may read it, else the MCP error for the problem. */
  private async readable(
    context: CallContext,
    slug: string,
  ): Promise<{ content: string; revision: number }> {
    try {
      requirePermission(context.user, 'read');
      return await this.pages.markdown(context.user, slug);
    } catch (error) {
      throw resourceError(error, context.req);
    }
  }
}

function slugOfPageUri(uri: string): string | null {
  if (!uri.startsWith(PAGE_URI_PREFIX) || uri.length === PAGE_URI_PREFIX.length) return null;
  return slugOfUri(uri.slice(PAGE_URI_PREFIX.length));
}

function methodNotAllowed(): Problem {
  return new Problem(
    405,
    'method_not_allowed',
    'GET and DELETE /mcp need the Mcp-Session-Id of a session (initialise one with POST).',
    {},
    { Allow: 'POST' },
  );
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
