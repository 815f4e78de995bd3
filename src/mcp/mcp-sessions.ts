import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthUser } from '../common/auth/auth-user';
import type { EventStream } from '../common/http/event-stream';
import { Problem } from '../common/problems/problem';
import { EventStreamService } from '../webhooks/public-api';

/** An MCP session idle this long is closed (its client initialises again). */
export const MCP_SESSION_IDLE_MS = 30 * 60_000;
/** The most open MCP sessions one person may hold in one process; the oldest goes first. */
export const MCP_SESSIONS_PER_USER = 20;

/** One MCP session: made by `initialize`, named by the Mcp-Session-Id header after it. */
export interface McpSession {
  id: string;
  /** The caller of the latest request of the session (tools run as them). */
  user: AuthUser;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** Subscribed pages: normalised slug → the URI the client subscribed with. */
  subscriptions: Map<string, string>;
  stopFollowing?: () => void;
  lastActive: number;
  /** What the session's tools read: updated with each request (McpService). */
  context: object;
}

function sessionNotFound(): Problem {
  return new Problem(
    404,
    'mcp_session_not_found',
    'No such MCP session (it ended, expired, belongs to someone else, or lives on another instance): initialise again.',
  );
}

/**
 * The open MCP sessions of this process. A session belongs to the person who initialised it:
 * another person's session id answers 404 like an unknown one. Resource subscriptions follow
 * the event stream (EventStreamService: one poll of the event log per process, filtered by
 * what the session's caller may see, token paths included), so a change written by any
 * process of a cluster reaches the subscriber.
 */
@Injectable()
export class McpSessions implements OnModuleDestroy {
  private readonly logger = new Logger('McpSessions');
  private readonly sessions = new Map<string, McpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly events: EventStreamService) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await this.closeAll();
  }

  get size(): number {
    return this.sessions.size;
  }

  add(session: McpSession): void {
    const mine = [...this.sessions.values()].filter((s) => s.user.id === session.user.id);
    if (mine.length >= MCP_SESSIONS_PER_USER) {
      const oldest = mine.sort((a, b) => a.lastActive - b.lastActive)[0];
      void this.close(oldest.id);
    }
    this.sessions.set(session.id, session);
  }

  /** The caller's session `id`, with the caller as its user from now on; else 404. */
  find(id: string, user: AuthUser): McpSession {
    const session = this.sessions.get(id);
    if (!session || session.user.id !== user.id) throw sessionNotFound();
    session.user = user;
    session.lastActive = Date.now();
    return session;
  }

  /** Forgets a session (its transport closed it) and stops its subscriptions. */
  forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.stopFollowing?.();
    session.stopFollowing = undefined;
  }

  async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.forget(id);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  async subscribe(session: McpSession, slug: string, uri: string): Promise<void> {
    session.subscriptions.set(slug, uri);
    if (session.stopFollowing) return;
    const stream: EventStream = {
      send: (type, data) => this.onEvent(session, type, data),
      end: () => {
        session.stopFollowing = undefined;
      },
    };
    session.stopFollowing = await this.events.subscribe(session.user, undefined, stream);
  }

  unsubscribe(session: McpSession, slug: string): void {
    session.subscriptions.delete(slug);
    if (session.subscriptions.size > 0) return;
    session.stopFollowing?.();
    session.stopFollowing = undefined;
  }

  /** An event the session's caller may see: a change to a subscribed page is announced. */
  private onEvent(session: McpSession, type: string, event: unknown): void {
    if (!type.startsWith('page.')) return;
    const data = (event as { data?: { slug?: unknown; from?: unknown } }).data ?? {};
    for (const slug of [data.slug, data.from]) {
      if (typeof slug !== 'string') continue;
      const uri = session.subscriptions.get(slug);
      if (uri === undefined) continue;
      session.server.server.sendResourceUpdated({ uri }).catch((error: unknown) =>
        this.logger.debug({
          msg: 'MCP resource notification not sent',
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    }
  }

  private sweep(): void {
    const limit = Date.now() - MCP_SESSION_IDLE_MS;
    for (const session of this.sessions.values())
      if (session.lastActive < limit && session.subscriptions.size === 0)
        void this.close(session.id);
  }
}
