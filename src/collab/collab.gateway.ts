import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import * as Y from 'yjs';
import { CredentialsService } from '../auth/public-api';
import { SESSION_COOKIE } from '../auth/public-api';
import { AuthGenerationRepository } from '../auth/public-api';
import type { AuthUser } from '../common/auth/auth-user';
import { roleAtLeast } from '../common/auth/roles';
import { AppConfig, InjectConfig } from '../common/config/app-config';
import { ShutdownState } from '../common/health/shutdown-state';
import { isSameOriginRequest } from '../common/http/origin';
import { Problem, problemType, titleFor } from '../common/problems/problem';
import { PagesService, PageWriterService } from '../pages/public-api';
import { UsersService } from '../auth/public-api';
import { CollabMetrics } from './collab-metrics';
import {
  CollabConnection,
  CollabMessageError,
  CollabRoom,
  RoomHost,
  seedUpdate,
} from './collab-room';
import { CollabFanout, PresenceSummary } from './collab-fanout';
import { CollabRepository } from './store/collab.repository';

/** The WebSocket endpoint, on kb's own port. */
export const COLLAB_PATH = '/collab';
/** How often an open session looks at its page and at the credentials generation (ms). */
const WATCH_MS = 500;
/** How often a process with editors tells the others who edits which page (ms). */
const PRESENCE_MS = 5_000;
/** A process not heard from for this long has no editors (it stopped or was killed) (ms). */
const PRESENCE_STALE_MS = 3 * PRESENCE_MS;

/** Close codes beyond the standard ones: the session ended and the client must not come back. */
export const CLOSE_ENDED = 4000;
export const CLOSE_REVOKED = 4003;

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/**
 * Live co-editing (docs/collab.md): the `/collab/<pageId>` WebSocket upgrade on kb's HTTP
 * server, authenticated like a cookie route (same Origin check) or by a bearer token, and the
 * open sessions (CollabRoom), stored in `collab_updates` and written as revisions through
 * PagesService.
 */
@Injectable()
export class CollabGateway implements OnApplicationBootstrap, OnApplicationShutdown, RoomHost {
  private readonly logger = new Logger(CollabGateway.name);
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly rooms = new Map<string, Promise<CollabRoom>>();
  private readonly opened = new Map<string, CollabRoom>();
  /** Fan-out messages for a page whose room is loading, applied once it has. */
  private readonly loading = new Map<string, Uint8Array[]>();
  /** Who edits which page through each other process: its summary and when it came. */
  private readonly remote = new Map<string, { at: number; pages: Record<string, string[]> }>();
  private presenceTimer: NodeJS.Timeout | null = null;
  private presenceSoon: NodeJS.Timeout | null = null;
  private presenceShared = false;
  private readonly perUser = new Map<string, number>();
  private watchTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private generation = -1;
  readonly pageMaxBytes: number;
  readonly saveIdleMs: number;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @InjectConfig('collab') private readonly collab: AppConfig['collab'],
    @InjectConfig('http') private readonly http: AppConfig['http'],
    @InjectConfig('pages') pagesConfig: AppConfig['pages'],
    private readonly credentials: CredentialsService,
    private readonly generations: AuthGenerationRepository,
    private readonly pages: PagesService,
    private readonly writer: PageWriterService,
    private readonly users: UsersService,
    private readonly store: CollabRepository,
    private readonly shutdown: ShutdownState,
    private readonly metrics: CollabMetrics,
    private readonly fanout: CollabFanout,
  ) {
    this.pageMaxBytes = pagesConfig.maxBytes;
    this.saveIdleMs = collab.saveIdleSeconds * 1000;
  }

  onApplicationBootstrap(): void {
    // An application context without HTTP (the CLI, the service tier) has no upgrades to serve.
    const adapter = this.adapterHost.httpAdapter as typeof this.adapterHost.httpAdapter | null;
    if (!adapter) return;
    const server = adapter.getHttpServer() as Server;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== COLLAB_PATH && !path.startsWith(`${COLLAB_PATH}/`)) return;
      this.upgrade(req, socket, head).catch((error: unknown) => {
        this.logger.error({ msg: 'collab upgrade failed', error: String(error) });
        socket.destroy();
      });
    });
    this.metrics.observe(() => ({
      documents: this.opened.size,
      connections: [...this.opened.values()].reduce((n, room) => n + room.connections.size, 0),
      lagSeconds: [...this.opened.values()].reduce(
        (lag, room) =>
          room.oldestPendingAt ? Math.max(lag, (Date.now() - room.oldestPendingAt) / 1000) : lag,
        0,
      ),
    }));
    this.fanout.onMessage((pageId, message) => {
      const room = this.opened.get(pageId);
      if (room) room.applyRemote(message);
      else this.loading.get(pageId)?.push(message);
    });
    this.fanout.onPresence((summary) => this.heard(summary));
    // Who edits what elsewhere: asked once at start, then each process says it every 5 s.
    this.fanout.publishPresence({ from: this.fanout.id, query: true, pages: {} });
    this.presenceTimer = setInterval(() => this.sharePresence(), PRESENCE_MS);
    this.presenceTimer.unref();
    this.pingTimer = setInterval(() => this.ping(), this.collab.pingSeconds * 1000);
    this.pingTimer.unref();
    this.watchTimer = setInterval(() => void this.watch(), WATCH_MS);
    this.watchTimer.unref();
    // Draining: editors are told to go (1012) and reconnect to another instance; what they
    // typed is stored already, and each room writes its revision as its last editor leaves.
    this.shutdown.onDrainStart('collab', () => {
      for (const room of this.opened.values())
        for (const c of room.connections) c.ws.close(1012, 'kb is restarting');
    });
    this.shutdown.onDrained('collab', () => this.closeAll());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.closeAll();
  }

  private async closeAll(): Promise<void> {
    if (this.watchTimer) clearInterval(this.watchTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.presenceTimer) clearInterval(this.presenceTimer);
    if (this.presenceSoon) clearTimeout(this.presenceSoon);
    for (const client of this.wss.clients) client.terminate();
    await Promise.all([...this.opened.values()].map((room) => room.settled()));
  }

  /** Who wants which page: refused at the upgrade with a problem body, or admitted. */
  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let admitted: { user: AuthUser; credential: CollabConnection['credential']; slug: string };
    let readOnly: boolean;
    let room: CollabRoom;
    try {
      if (this.shutdown.draining) throw new Refusal(503, 'shutting_down', 'kb is restarting.');
      // The credentials generation as of before this check: a sign-out right after it (before
      // the watch's first look) still counts as a change.
      if (this.generation === -1)
        this.generation = await this.generations.current().catch(() => -1);
      admitted = await this.authenticate(req);
      const page = await this.pages.getVisible(admitted.slug, admitted.user).catch(() => null);
      if (!page)
        throw new Refusal(403, 'page_not_visible', 'No page at this slug is visible to you.');
      readOnly = !roleAtLeast(admitted.user.role, 'editor');
      if (readOnly && !this.collab.readersFollow)
        throw new Refusal(403, 'insufficient_role', 'Editing together needs the role editor.');
      if ((this.perUser.get(admitted.user.id) ?? 0) >= this.collab.maxConnectionsPerUser)
        throw new Refusal(429, 'too_many_connections', 'You have too many live editors open.');
      room = await this.room(page.id, page.liveSlug ?? page.slug, page.content, page.revision);
      if (room.connections.size >= this.collab.maxConnectionsPerPage)
        throw new Refusal(429, 'too_many_connections', 'Too many people are on this page.');
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      refuse(socket, error);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, room, admitted, readOnly));
  }

  private async authenticate(req: IncomingMessage): Promise<{
    user: AuthUser;
    credential: CollabConnection['credential'];
    slug: string;
  }> {
    const url = new URL(req.url ?? '/', 'http://kb');
    const slug =
      url.searchParams.get('slug') ??
      decodeURIComponent(url.pathname.slice(COLLAB_PATH.length + 1));
    if (!slug) throw new Refusal(404, 'page_not_found', 'Connect to /collab/<page slug>.');
    const header = req.headers.authorization;
    if (header !== undefined) {
      const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
      const user = match ? await this.credentials.fromBearer(match[1]) : null;
      if (!user)
        throw new Refusal(401, 'invalid_token', 'The bearer token is unknown, revoked or expired.');
      return { user, credential: { kind: 'bearer', secret: match![1] }, slug };
    }
    const secret = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (!secret) throw new Refusal(401, 'unauthorized', 'Sign in first.');
    if (!isSameOriginRequest(this.asExpressRequest(req), this.http.allowedOrigins))
      throw new Refusal(
        403,
        'cross_origin_refused',
        'Cookie-authenticated connections must come from this site.',
      );
    const user = await this.credentials.fromSession(secret);
    if (!user) throw new Refusal(401, 'session_expired', 'The session has ended; sign in again.');
    return { user, credential: { kind: 'session', secret }, slug };
  }

  /** The upgrade request with Express's getters (protocol, host: TRUST_PROXY applies). */
  private asExpressRequest(req: IncomingMessage): Request {
    const app = this.adapterHost.httpAdapter.getInstance<{ request: object }>();
    const wrapped = Object.create(app.request) as Request & { app: unknown };
    Object.assign(wrapped, {
      app,
      headers: req.headers,
      socket: req.socket,
      connection: req.socket,
    });
    return wrapped;
  }

  private connected(
    ws: WebSocket,
    room: CollabRoom,
    admitted: { user: AuthUser; credential: CollabConnection['credential'] },
    readOnly: boolean,
  ): void {
    const limit = this.collab.maxMessagesPerSecond;
    const connection: CollabConnection = {
      ws,
      user: admitted.user,
      readOnly,
      credential: admitted.credential,
      clientIds: new Set(),
      tokens: limit * 10,
      refilledAt: Date.now(),
      alive: true,
    };
    this.perUser.set(admitted.user.id, (this.perUser.get(admitted.user.id) ?? 0) + 1);
    ws.on('pong', () => (connection.alive = true));
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      const now = Date.now();
      connection.tokens = Math.min(
        limit * 10,
        connection.tokens + ((now - connection.refilledAt) * limit) / 1000,
      );
      connection.refilledAt = now;
      if (--connection.tokens < 0) {
        ws.close(1008, 'too many messages');
        return;
      }
      if (!isBinary || data.length > this.collab.maxMessageBytes) {
        ws.close(isBinary ? 1009 : 1003, isBinary ? 'message too large' : 'binary messages only');
        return;
      }
      try {
        room.receive(connection, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      } catch (error) {
        const refused =
          error instanceof CollabMessageError
            ? error
            : new CollabMessageError(1011, 'internal error');
        this.logger.warn({
          msg: 'collab message refused',
          reason: refused.reason,
          user: connection.user.username,
        });
        ws.close(refused.code, refused.reason);
      }
    });
    ws.on('close', () => {
      const left = (this.perUser.get(connection.user.id) ?? 1) - 1;
      if (left > 0) this.perUser.set(connection.user.id, left);
      else this.perUser.delete(connection.user.id);
      room.close(connection);
      this.presenceChanged();
    });
    ws.on('error', () => ws.terminate());
    room.open(connection);
    this.presenceChanged();
  }

  /** The open session of a page, loaded (or seeded from its Markdown) on first use. */
  private room(
    pageId: string,
    slug: string,
    content: string,
    revision: number,
  ): Promise<CollabRoom> {
    let room = this.rooms.get(pageId);
    if (!room) {
      room = this.load(pageId, slug, content, revision);
      this.rooms.set(pageId, room);
      room.catch(() => this.rooms.delete(pageId));
    }
    return room;
  }

  private async load(
    pageId: string,
    slug: string,
    content: string,
    revision: number,
  ): Promise<CollabRoom> {
    const room = new CollabRoom(pageId, slug, this);
    // Listening first, then reading: an update another process stores after the read arrives
    // through the fan-out, one stored before it is in the read (both at worst: Yjs ignores
    // what it has).
    this.loading.set(pageId, []);
    try {
      await this.fanout.subscribe(pageId);
      await this.loadStored(room, content, revision);
    } catch (error) {
      this.loading.delete(pageId);
      throw error;
    }
    this.opened.set(pageId, room);
    for (const message of this.loading.get(pageId) ?? []) room.applyRemote(message);
    this.loading.delete(pageId);
    room.queryRemotePresence();
    return room;
  }

  /** The stored document (seeded from the Markdown the first time), and a write since. */
  private async loadStored(room: CollabRoom, content: string, revision: number): Promise<void> {
    const pageId = room.pageId;
    let stored = await this.store.load(pageId);
    if (stored.updates.length === 0) {
      // The first session of the page: its Markdown, as the same bytes on every instance.
      await this.store.append(pageId, seedUpdate(content), [], revision);
      stored = await this.store.load(pageId);
    }
    room.load(stored.updates);
    room.storedIds = stored.ids;
    room.savedRevision = stored.revision;
    room.savedText = room.text.toString();
    for (const id of stored.authors) {
      const user = await this.users.findActiveById(id);
      if (user) room.authors.set(id, user.username);
    }
    if (stored.revision < revision) {
      // The page was written while no one was editing: that change, as a diff (once).
      if (await this.store.claim(pageId, revision)) room.applyWrite(room.savedText, content);
      room.savedText = content;
      room.savedRevision = revision;
    }
  }

  // RoomHost

  async persist(room: CollabRoom, update: Uint8Array, authors: string[]): Promise<void> {
    const started = Date.now();
    room.storedIds.push(await this.store.append(room.pageId, update, authors, room.savedRevision));
    room.appended += 1;
    this.metrics.persisted((Date.now() - started) / 1000);
  }

  async compact(room: CollabRoom): Promise<void> {
    const ids = room.storedIds;
    const snapshot = Y.encodeStateAsUpdate(room.doc);
    await this.store.compact(
      room.pageId,
      ids,
      snapshot,
      [...room.authors.keys()],
      room.savedRevision,
    );
    const stored = await this.store.load(room.pageId);
    room.storedIds = stored.ids;
    room.appended = 0;
  }

  async writeRevision(room: CollabRoom, actor: AuthUser): Promise<void> {
    const content = room.text.toString();
    const coAuthors = [...room.authors]
      .filter(([id]) => id !== actor.id)
      .map(([, username]) => username)
      .sort();
    try {
      // The revision is marked as the session's in its own transaction: another process's
      // watch never applies it as a diff, and its own write at the same base finds it taken.
      const revision = await this.writer.writeSessionText(
        room.pageId,
        content,
        actor,
        room.savedRevision,
        coAuthors,
        (tx, written) => this.store.claimWritten(tx, room.pageId, written),
      );
      const changed = revision !== room.savedRevision;
      room.savedText = content;
      room.savedRevision = revision;
      room.authors.clear();
      await this.compact(room);
      room.notify({ type: 'saved', revision, author: actor.username, coAuthors });
      if (changed) room.announceSaved({ revision, author: actor.username, coAuthors, content });
    } catch (error) {
      // A write in between (seen by the watch, which applies it as a diff): the next save wins.
      // Another process writing the same quiet's revision first is the usual case: no warning.
      const conflict = error instanceof Problem && error.code === 'revision_conflict';
      this.logger[conflict ? 'debug' : 'warn']({
        msg: 'collab revision not written',
        pageId: room.pageId,
        error: String(error),
      });
    }
  }

  closed(room: CollabRoom): void {
    if (room.connections.size > 0 || this.opened.get(room.pageId) !== room) return;
    this.opened.delete(room.pageId);
    this.rooms.delete(room.pageId);
    this.fanout.unsubscribe(room.pageId);
    room.destroy();
  }

  updateCounted(): void {
    this.metrics.updated();
  }

  publish(room: CollabRoom, message: Uint8Array): void {
    this.fanout.publish(room.pageId, message);
  }

  editingElsewhere(room: CollabRoom): boolean {
    return this.remoteEditors(room.pageId).size > 0;
  }

  /** The people (user ids) editing `pageId` through other processes, as they last said. */
  private remoteEditors(pageId: string): Set<string> {
    const people = new Set<string>();
    const fresh = Date.now() - PRESENCE_STALE_MS;
    for (const [from, summary] of this.remote) {
      if (summary.at < fresh) this.remote.delete(from);
      else for (const id of summary.pages[pageId] ?? []) people.add(id);
    }
    return people;
  }

  /** The people (user ids) editing each page through this process (not readers following). */
  private localEditors(): Record<string, string[]> {
    const pages: Record<string, string[]> = {};
    for (const [pageId, room] of this.opened) {
      const people = new Set<string>();
      for (const c of room.connections) if (!c.readOnly) people.add(c.user.id);
      if (people.size > 0) pages[pageId] = [...people].sort();
    }
    return pages;
  }

  /** Another process said who edits what there (or asked: then this one says it now). */
  private heard(summary: PresenceSummary): void {
    if (summary.from === this.fanout.id) return;
    if (Object.keys(summary.pages).length > 0)
      this.remote.set(summary.from, { at: Date.now(), pages: summary.pages });
    else this.remote.delete(summary.from);
    if (summary.query) this.sharePresence(true);
  }

  /** Someone joined or left here: the others hear it within a moment (changes batched). */
  private presenceChanged(): void {
    this.presenceSoon ??= setTimeout(() => {
      this.presenceSoon = null;
      this.sharePresence(true);
    }, 20);
  }

  /** Tells the other processes who edits what here (an empty summary once, after the last). */
  private sharePresence(always = false): void {
    const pages = this.localEditors();
    const any = Object.keys(pages).length > 0;
    if (!any && !this.presenceShared && !always) return;
    this.presenceShared = any;
    this.fanout.publishPresence({ from: this.fanout.id, pages });
  }

  /** A session's page and its people: written elsewhere, moved, binned; access changed. */
  private async watch(): Promise<void> {
    if (this.opened.size === 0) return;
    let generationMoved = false;
    try {
      const generation = await this.generations.current();
      generationMoved = this.generation !== -1 && generation !== this.generation;
      this.generation = generation;
    } catch {
      return;
    }
    for (const room of this.opened.values()) {
      try {
        await this.watchRoom(room, generationMoved);
      } catch (error) {
        this.logger.warn({ msg: 'collab watch failed', pageId: room.pageId, error: String(error) });
      }
    }
  }

  private async watchRoom(room: CollabRoom, generationMoved: boolean): Promise<void> {
    await room.saving;
    const page = await this.pages.pageById(room.pageId);
    if (!page || page.liveSlug === null) {
      this.end(room, 'The page was moved to the bin; this editing session has ended.');
      return;
    }
    if (page.liveSlug !== room.slug) {
      room.slug = page.liveSlug;
      room.notify({ type: 'moved', slug: page.liveSlug });
    }
    // Someone in the session, here or through another process.
    const byEditor =
      page.updatedBy !== null &&
      (room.members.has(page.updatedBy) || this.remoteEditors(room.pageId).has(page.updatedBy));
    if (page.revision > room.savedRevision && byEditor) {
      // No process applies it as a diff (it is the shared text already).
      await this.store.claim(room.pageId, page.revision);
      // A PUT by someone in the session is their editor's Save: it wrote (a moment of) the
      // shared text, already in the document, so no diff; the others who typed are its
      // co-authors, and what was typed since stays for the next revision.
      const coAuthors = [...room.authors]
        .filter(([id]) => id !== page.updatedBy)
        .map(([, username]) => username)
        .sort();
      await this.writer.setCoAuthors(room.pageId, page.revision, coAuthors);
      room.authors.clear();
      room.savedText = page.content;
      room.savedRevision = page.revision;
    } else if (page.revision > room.savedRevision) {
      // A PUT, an import or a restore: its change reaches the editors as a diff, applied by
      // one instance (the others get it from that one through the fan-out).
      if (await this.store.claim(room.pageId, page.revision))
        room.applyWrite(room.savedText, page.content);
      room.savedText = page.content;
      room.savedRevision = page.revision;
    }
    for (const connection of [...room.connections]) {
      const user = generationMoved ? await this.reauthenticate(connection) : connection.user;
      if (!user || !(await this.pages.visibleById(room.pageId, user))) {
        room.close(connection);
        connection.ws.close(CLOSE_REVOKED, 'access revoked');
        continue;
      }
      if (connection.readOnly === roleAtLeast(user.role, 'editor')) {
        connection.ws.close(CLOSE_REVOKED, 'role changed');
        continue;
      }
      connection.user = user;
    }
  }

  private reauthenticate(connection: CollabConnection): Promise<AuthUser | null> {
    const { kind, secret } = connection.credential;
    return kind === 'bearer'
      ? this.credentials.fromBearer(secret)
      : this.credentials.fromSession(secret);
  }

  private end(room: CollabRoom, message: string): void {
    room.ended = true;
    room.notify({ type: 'ended', message });
    for (const connection of room.connections) connection.ws.close(CLOSE_ENDED, 'session ended');
    if (room.connections.size === 0) this.closed(room);
  }

  private ping(): void {
    for (const ws of this.wss.clients) {
      const state = ws as WebSocket & { kbAlive?: boolean };
      if (state.kbAlive === false) {
        ws.terminate();
        continue;
      }
      state.kbAlive = false;
      ws.once('pong', () => (state.kbAlive = true));
      ws.ping();
    }
  }

  /**
   * The number of people editing a page (the page view's "N editing"): those connected here
   * and those the other processes (workers, instances) last said edit it.
   */
  editing(pageId: string): number {
    const people = this.remoteEditors(pageId);
    for (const id of this.localEditors()[pageId] ?? []) people.add(id);
    return people.size;
  }
}

/** One cookie of a Cookie header (as cookie-parser reads it for the HTTP routes). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      const raw = part
        .slice(at + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

function refuse(socket: Duplex, refusal: Refusal): void {
  const body = JSON.stringify({
    type: problemType(refusal.code),
    title: titleFor(refusal.status),
    status: refusal.status,
    detail: refusal.detail,
    code: refusal.code,
  });
  socket.end(
    `HTTP/1.1 ${refusal.status} ${titleFor(refusal.status)}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
