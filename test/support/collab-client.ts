import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { MESSAGE_NOTICE, readNotice, saveMessage } from '../../src/collab/collab-protocol';
import type { CollabNotice } from '../../src/collab/collab-protocol';

/** How a test client authenticates: a session cookie (with an Origin) or a bearer token. */
export interface CollabAuth {
  cookie?: string;
  bearer?: string;
  origin?: string;
}

function headersOf(auth: CollabAuth): Record<string, string> {
  const headers: Record<string, string> = {};
  if (auth.cookie) headers.Cookie = auth.cookie;
  if (auth.bearer) headers.Authorization = `Bearer ${auth.bearer}`;
  if (auth.origin) headers.Origin = auth.origin;
  return headers;
}

/**
 * A Node editor speaking the Yjs sync and awareness protocols to /collab through the same
 * provider the console uses (y-websocket), with kb's notices collected.
 */
export class CollabClient {
  readonly doc = new Y.Doc();
  readonly text = this.doc.getText('markdown');
  readonly provider: WebsocketProvider;
  readonly notices: CollabNotice[] = [];
  readonly closes: { code: number; reason: string }[] = [];

  constructor(base: string, pageId: string, auth: CollabAuth, name = 'someone') {
    const headers = headersOf(auth);
    class AuthedSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    }
    this.provider = new WebsocketProvider(
      `${base.replace(/^http/, 'ws')}/collab`,
      pageId,
      this.doc,
      {
        WebSocketPolyfill: AuthedSocket as unknown as typeof globalThis.WebSocket,
        disableBc: true,
        maxBackoffTime: 300,
      },
    );
    this.provider.awareness.setLocalStateField('user', { name, color: '#336699' });
    this.provider.messageHandlers[MESSAGE_NOTICE] = (_encoder, decoder) => {
      this.notices.push(readNotice(decoder));
    };
    this.provider.on('connection-close', (event: { code: number; reason: string } | null) => {
      if (event) this.closes.push({ code: event.code, reason: event.reason });
    });
  }

  get synced(): boolean {
    return this.provider.synced;
  }

  type(at: number, text: string): void {
    this.text.insert(at, text);
  }

  save(): void {
    this.provider.ws?.send(saveMessage());
  }

  /** The names of the others in the session, as kb sent them. */
  names(): string[] {
    const own = this.doc.clientID;
    return [...this.provider.awareness.getStates()]
      .filter(([id]) => id !== own)
      .map(([, s]) => (s as { user?: { name?: string } }).user?.name)
      .filter((n): n is string => typeof n === 'string')
      .sort();
  }

  destroy(): void {
    this.provider.destroy();
    this.doc.destroy();
  }
}

/** Opens a raw WebSocket and answers how the upgrade went: its HTTP status, or 101 and the socket. */
export function rawUpgrade(
  url: string,
  auth: CollabAuth,
): Promise<{ status: number; body: string; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: headersOf(auth) });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('open', () => resolve({ status: 101, body: '', ws }));
    ws.on('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}
