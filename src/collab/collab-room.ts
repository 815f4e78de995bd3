import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import type { WebSocket } from 'ws';
import * as Y from 'yjs';
import type { AuthUser } from '../common/auth/auth-user';
import {
  CollabNotice,
  insertedLength,
  MESSAGE_AWARENESS,
  MESSAGE_QUERY_AWARENESS,
  MESSAGE_REMOTE_SAVED,
  MESSAGE_REMOTE_UPDATE,
  MESSAGE_SAVE,
  MESSAGE_SYNC,
  noticeMessage,
  RemoteSaved,
} from './collab-protocol';
import { editsOnto } from './three-way';

/** The name of the shared Markdown in every page's Y.Doc (the console binds CodeMirror to it). */
export const TEXT_NAME = 'markdown';
/** Yjs client id of a document's first state: the same for every instance, so two seeds merge. */
const SEED_CLIENT_ID = 1;

/** Transaction origins that are not a connection. */
const LOAD = 'load';
const API = 'api';

/** One person's WebSocket on a page. */
export interface CollabConnection {
  ws: WebSocket;
  user: AuthUser;
  /** A reader following the session: its document updates are dropped. */
  readOnly: boolean;
  /** What authenticated it (checked again whenever credentials or the page change). */
  credential: { kind: 'session' | 'bearer'; secret: string };
  /** The awareness client ids this connection announced (removed when it closes). */
  clientIds: Set<number>;
  /** Messages left in this connection's rate bucket, and when it was last refilled. */
  tokens: number;
  refilledAt: number;
  alive: boolean;
}

/** Why a message closed its connection. */
export class CollabMessageError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** What a room needs from the rest of kb: storage, revisions, counters. */
export interface RoomHost {
  persist(room: CollabRoom, update: Uint8Array, authors: string[]): Promise<void>;
  compact(room: CollabRoom): Promise<void>;
  writeRevision(room: CollabRoom, actor: AuthUser | null): Promise<void>;
  /** The room has no connection left and nothing to write: forget it. */
  closed(room: CollabRoom): void;
  updateCounted(): void;
  readonly pageMaxBytes: number;
  readonly saveIdleMs: number;
  /** Updates from another instance (Redis) or to it. */
  publish?(room: CollabRoom, message: Uint8Array): void;
  /** Whether people edit this page through another process (the cluster-wide presence). */
  editingElsewhere?(room: CollabRoom): boolean;
}

/** The seed of a page's shared document: the same bytes wherever it is made. */
export function seedUpdate(content: string): Uint8Array {
  const doc = new Y.Doc();
  doc.clientID = SEED_CLIENT_ID;
  doc.getText(TEXT_NAME).insert(0, content);
  const update = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return update;
}

/**
 * One page's live session: the Y.Doc with its Markdown `Y.Text`, the awareness (cursors,
 * names), the connections, and what has not reached the database yet. Updates are applied at
 * once, stored in small batches, and sent to the other editors once stored: what a peer has
 * seen survives a kill -9.
 */
export class CollabRoom {
  readonly doc = new Y.Doc({ gc: true });
  readonly text = this.doc.getText(TEXT_NAME);
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  readonly connections = new Set<CollabConnection>();
  /** Ids of everyone who has been connected to this session (a Save may land as they leave). */
  readonly members = new Set<string>();
  /** Ids of the people who typed since the previous revision, with their usernames. */
  readonly authors = new Map<string, string>();
  /** The row ids stored for this document (a compaction replaces them). */
  storedIds: string[] = [];
  /** Rows appended since the last compaction. */
  appended = 0;
  /** The Markdown and revision of the page as last written (or read) by the session. */
  savedText = '';
  savedRevision = 0;
  /**
   * The last editor who typed, here or through another process: the author of a revision
   * written when editing settles.
   */
  lastTyper: AuthUser | null = null;
  /** Updates not yet stored, with the connection they came from (not sent back to it). */
  private pending: { update: Uint8Array; origin: unknown; author: string | null }[] = [];
  private flushing: Promise<void> | null = null;
  /** Oldest unstored update's arrival (ms), for the persistence lag metric; 0: none. */
  oldestPendingAt = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  /** The revision write in progress (an API write's event waits for it). */
  saving: Promise<void> = Promise.resolve();
  ended = false;
  /** Closed: the gateway forgot it (a new room serves the page's next connection). */
  private gone = false;

  constructor(
    readonly pageId: string,
    public slug: string,
    private readonly host: RoomHost,
  ) {
    this.awareness.setLocalState(null);
    this.doc.on('update', (update: Uint8Array, origin: unknown) => this.onUpdate(update, origin));
    this.awareness.on(
      'update',
      (
        { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
        origin: unknown,
      ) => this.onAwareness([...added, ...updated], removed, origin),
    );
  }

  /** Applies what the database holds (and nothing goes back to it). */
  load(updates: Uint8Array[]): void {
    Y.transact(
      this.doc,
      () => {
        for (const update of updates) Y.applyUpdate(this.doc, update);
      },
      LOAD,
    );
  }

  /** The page's Markdown moved on from `base` to `next` outside the session: the change as a diff. */
  applyWrite(base: string, next: string): void {
    const live = this.text.toString();
    if (next === live) return;
    const edits = editsOnto(base, next, live);
    Y.transact(
      this.doc,
      () => {
        for (const edit of edits) {
          if (edit.length > 0) this.text.delete(edit.at, edit.length);
          if (edit.insert) this.text.insert(edit.at, edit.insert);
        }
      },
      API,
    );
  }

  /** Someone typed since the previous revision (or the text differs from it). */
  get dirty(): boolean {
    return this.text.toString() !== this.savedText;
  }

  /**
   * What another process of kb (Redis, or the cluster primary) sent for this page: an update
   * with its typist, presence, a question for this process's presence, or a revision it wrote.
   * Applied here and sent to this process's editors, never published again.
   */
  applyRemote(message: Uint8Array): void {
    const decoder = decoding.createDecoder(message);
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE_REMOTE_UPDATE) {
      const typist = JSON.parse(decoding.readVarString(decoder)) as AuthUser | null;
      const update = decoding.readVarUint8Array(decoder);
      if (typist) {
        this.authors.set(typist.id, typist.username);
        this.lastTyper = typist;
        // Every process with the page open waits for the quiet; the first to write wins and
        // the others' writes find the revision taken (docs/collab.md).
        this.scheduleIdleSave();
      }
      Y.applyUpdate(this.doc, update, this.host);
    } else if (type === MESSAGE_SYNC) {
      decoding.readVarUint(decoder);
      Y.applyUpdate(this.doc, decoding.readVarUint8Array(decoder), this.host);
    } else if (type === MESSAGE_AWARENESS) {
      const update = decoding.readVarUint8Array(decoder);
      awarenessProtocol.applyAwarenessUpdate(this.awareness, update, this.host);
    } else if (type === MESSAGE_QUERY_AWARENESS) {
      // A process that just opened the page asks who is here.
      const own = [...this.connections].flatMap((c) => [...c.clientIds]);
      if (own.length > 0) this.host.publish?.(this, awarenessMessage(this.awareness, own));
    } else if (type === MESSAGE_REMOTE_SAVED) {
      this.savedElsewhere(JSON.parse(decoding.readVarString(decoder)) as RemoteSaved);
    }
  }

  /** Another process wrote the session's text as a revision: its base and authors are ours. */
  private savedElsewhere(saved: RemoteSaved): void {
    if (saved.revision < this.savedRevision) return;
    this.savedRevision = saved.revision;
    this.savedText = saved.content;
    const written = new Set([saved.author, ...saved.coAuthors]);
    for (const [id, username] of this.authors) if (written.has(username)) this.authors.delete(id);
    if (!this.dirty) {
      this.clearIdle();
      this.closeIfEmpty();
    }
    this.notify({
      type: 'saved',
      revision: saved.revision,
      author: saved.author,
      coAuthors: saved.coAuthors,
    });
  }

  /** Tells the other processes of this page that this one wrote `saved` (and its editors). */
  announceSaved(saved: RemoteSaved): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_REMOTE_SAVED);
    encoding.writeVarString(encoder, JSON.stringify(saved));
    this.host.publish?.(this, encoding.toUint8Array(encoder));
  }

  /** Asks the other processes with this page open for their editors' presence. */
  queryRemotePresence(): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_QUERY_AWARENESS);
    this.host.publish?.(this, encoding.toUint8Array(encoder));
  }

  /** A new connection: the server's state vector (step 1) and everyone's presence. */
  open(connection: CollabConnection): void {
    this.connections.add(connection);
    this.members.add(connection.user.id);
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeSyncStep1(encoder, this.doc);
    send(connection, encoding.toUint8Array(encoder));
    const states = [...this.awareness.getStates().keys()];
    if (states.length > 0) send(connection, awarenessMessage(this.awareness, states));
    if (connection.readOnly) send(connection, noticeMessage({ type: 'readOnly' }));
  }

  /** One binary message from `connection`; a malformed one throws CollabMessageError. */
  receive(connection: CollabConnection, data: Uint8Array): void {
    try {
      const decoder = decoding.createDecoder(data);
      const type = decoding.readVarUint(decoder);
      if (type === MESSAGE_SYNC) this.receiveSync(connection, decoder);
      else if (type === MESSAGE_AWARENESS) {
        const update = decoding.readVarUint8Array(decoder);
        awarenessProtocol.applyAwarenessUpdate(this.awareness, update, connection);
        // A client back from another process (which fanned its state out here already, same
        // clock, so no change event) is still this connection's: its state goes when it does.
        const ids = awarenessClientIds(update);
        for (const id of ids)
          if (this.awareness.getStates().get(id)) this.claimClientId(connection, id);
      } else if (type === MESSAGE_QUERY_AWARENESS) {
        send(connection, awarenessMessage(this.awareness, [...this.awareness.getStates().keys()]));
      } else if (type === MESSAGE_SAVE) {
        if (!connection.readOnly) void this.save(connection.user);
      } else throw new CollabMessageError(1003, `unknown message type ${type}`);
    } catch (error) {
      if (error instanceof CollabMessageError) throw error;
      throw new CollabMessageError(1007, 'malformed message');
    }
  }

  private receiveSync(connection: CollabConnection, decoder: decoding.Decoder): void {
    const syncType = decoding.readVarUint(decoder);
    if (syncType === syncProtocol.messageYjsSyncStep1) {
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE_SYNC);
      syncProtocol.writeSyncStep2(encoder, this.doc, decoding.readVarUint8Array(decoder));
      send(connection, encoding.toUint8Array(encoder));
      return;
    }
    if (syncType !== syncProtocol.messageYjsSyncStep2 && syncType !== syncProtocol.messageYjsUpdate)
      throw new CollabMessageError(1007, 'malformed message');
    const update = decoding.readVarUint8Array(decoder);
    // A follower's document updates are dropped, as the issue asks (its editor is read-only).
    if (connection.readOnly) return;
    // Decoded first: a malformed update throws here, before the document is touched.
    const inserted = insertedLength(update);
    if (inserted > 0 && this.text.length + inserted > this.host.pageMaxBytes)
      throw new CollabMessageError(1009, 'the page would grow past the page size limit');
    Y.applyUpdate(this.doc, update, connection);
  }

  private onUpdate(update: Uint8Array, origin: unknown): void {
    if (origin === LOAD) return;
    const connection = isConnection(origin) ? origin : null;
    if (connection) {
      this.authors.set(connection.user.id, connection.user.username);
      this.lastTyper = connection.user;
      this.host.updateCounted();
      this.scheduleIdleSave();
    }
    if (origin === this.host) {
      // From another instance: that instance stored it; only this one's editors need it.
      this.broadcast(syncUpdateMessage(update), null);
      return;
    }
    this.pending.push({ update, origin, author: connection?.user.id ?? null });
    if (this.oldestPendingAt === 0) this.oldestPendingAt = Date.now();
    this.flushing ??= this.flush();
  }

  /** Stores what is pending as one row, then sends it to every other editor. */
  private async flush(): Promise<void> {
    // Let the messages already received join this batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      const authors = [...new Set(batch.map((b) => b.author).filter((a) => a !== null))];
      const merged = Y.mergeUpdates(batch.map((b) => b.update));
      for (;;) {
        try {
          await this.host.persist(this, merged, authors);
          break;
        } catch {
          // The database is away: keep the batch and try again (peers wait for it).
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
      this.oldestPendingAt = this.pending.length > 0 ? Date.now() : 0;
      for (const { update, origin } of batch) {
        this.broadcast(syncUpdateMessage(update), origin);
        const typist = isConnection(origin) ? origin.user : null;
        this.host.publish?.(this, remoteUpdateMessage(update, typist));
      }
    }
    this.flushing = null;
    if (this.appended >= 200) await this.host.compact(this);
  }

  /** Resolves once everything received so far is stored. */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private onAwareness(changed: number[], removed: number[], origin: unknown): void {
    const connection = isConnection(origin) ? origin : null;
    if (connection) {
      for (const id of changed) {
        this.claimClientId(connection, id);
        // The name shown is the one kb knows, whatever the client claimed.
        const state = this.awareness.getStates().get(id) as Record<string, unknown> | undefined;
        if (state) {
          const user = (state.user ?? {}) as Record<string, unknown>;
          state.user = {
            color: typeof user.color === 'string' ? user.color.slice(0, 32) : '#1a73e8',
            name: connection.user.displayName || connection.user.username,
            username: connection.user.username,
            readOnly: connection.readOnly,
          };
        }
      }
      for (const id of removed) connection.clientIds.delete(id);
    }
    const message = awarenessMessage(this.awareness, [...changed, ...removed]);
    this.broadcast(message, connection);
    if (origin !== this.host) this.host.publish?.(this, message);
  }

  private claimClientId(connection: CollabConnection, id: number): void {
    for (const other of this.connections) if (other !== connection) other.clientIds.delete(id);
    connection.clientIds.add(id);
  }

  /** A connection went away: its presence goes, and the last one out writes the revision. */
  close(connection: CollabConnection): void {
    if (!this.connections.delete(connection)) return;
    awarenessProtocol.removeAwarenessStates(this.awareness, [...connection.clientIds], null);
    if (this.connections.size === 0) void this.lastLeft();
  }

  private async lastLeft(): Promise<void> {
    await this.settled();
    if (this.dirty && !this.ended && (this.host.editingElsewhere?.(this) ?? false)) {
      // The last one out of this process, not of the session: the others go on through other
      // processes, and the revision is written when editing settles, by whichever process's
      // quiet timer fires first (the others find it written). This room stays open till then.
      if (!this.idleTimer) this.scheduleIdleSave();
      return;
    }
    if (this.dirty && !this.ended) await this.save(this.lastTyper);
    this.closeIfEmpty();
  }

  /** Nobody is connected here and nothing is left to write: the room goes. */
  private closeIfEmpty(): void {
    if (this.connections.size > 0 || this.gone) return;
    this.gone = true;
    this.clearIdle();
    this.host.closed(this);
  }

  private scheduleIdleSave(): void {
    this.clearIdle();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      void this.save(this.lastTyper).then(() => this.closeIfEmpty());
    }, this.host.saveIdleMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** Writes the shared text as a revision by `actor` (one write at a time). */
  save(actor: AuthUser | null): Promise<void> {
    const run = this.saving.then(async () => {
      await this.settled();
      if (!this.dirty || this.ended || !actor) return;
      this.clearIdle();
      await this.host.writeRevision(this, actor);
    });
    this.saving = run.catch(() => undefined);
    return this.saving;
  }

  notify(notice: CollabNotice): void {
    const message = noticeMessage(notice);
    for (const connection of this.connections) send(connection, message);
  }

  broadcast(message: Uint8Array, except: unknown): void {
    for (const connection of this.connections) if (connection !== except) send(connection, message);
  }

  destroy(): void {
    this.clearIdle();
    this.awareness.destroy();
    this.doc.destroy();
  }
}

function isConnection(origin: unknown): origin is CollabConnection {
  return typeof origin === 'object' && origin !== null && 'ws' in origin && 'user' in origin;
}

export function send(connection: CollabConnection, message: Uint8Array): void {
  if (connection.ws.readyState !== connection.ws.OPEN) return;
  connection.ws.send(message, (error) => {
    if (error) connection.ws.terminate();
  });
}

/** An update for the other processes, with who typed it (no credentials: id, name, role, groups). */
function remoteUpdateMessage(update: Uint8Array, typist: AuthUser | null): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_REMOTE_UPDATE);
  const who = typist && {
    id: typist.id,
    username: typist.username,
    displayName: typist.displayName,
    role: typist.role,
    groups: typist.groups,
    via: typist.via,
  };
  encoding.writeVarString(encoder, JSON.stringify(who));
  encoding.writeVarUint8Array(encoder, update);
  return encoding.toUint8Array(encoder);
}

/** The client ids an awareness update is about. */
function awarenessClientIds(update: Uint8Array): number[] {
  const decoder = decoding.createDecoder(update);
  const ids: number[] = [];
  const count = decoding.readVarUint(decoder);
  for (let i = 0; i < count; i++) {
    ids.push(decoding.readVarUint(decoder));
    decoding.readVarUint(decoder);
    decoding.readVarString(decoder);
  }
  return ids;
}

function syncUpdateMessage(update: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_SYNC);
  syncProtocol.writeUpdate(encoder, update);
  return encoding.toUint8Array(encoder);
}

function awarenessMessage(awareness: awarenessProtocol.Awareness, clients: number[]): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
  encoding.writeVarUint8Array(encoder, awarenessProtocol.encodeAwarenessUpdate(awareness, clients));
  return encoding.toUint8Array(encoder);
}
