import { useEffect, useMemo, useState } from 'react';
import { UndoManager, Doc, type Text } from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

/** kb's own messages beside y-websocket's (src/collab/collab-protocol.ts). */
const MESSAGE_SAVE = 100;
const MESSAGE_NOTICE = 101;

type Notice =
  | { type: 'saved'; revision: number; author: string; coAuthors: string[] }
  | { type: 'moved'; slug: string }
  | { type: 'ended'; message: string }
  | { type: 'readOnly' };

export interface CollabSession {
  text: Text;
  awareness: WebsocketProvider['awareness'];
  undoManager: UndoManager;
  /** Connected to /collab now (false: typing goes on, merged on reconnect). */
  online: boolean;
  /** The first sync happened: the editor may show the shared text. */
  synced: boolean;
  /** The names of the people in the session (everyone, this person included). */
  names: string[];
  /** The last thing kb said: a revision written, the page moved, the session ended. */
  notice: string | null;
  ended: boolean;
  save(): void;
}

const COLOURS = ['#1a73e8', '#d93025', '#188038', '#e37400', '#9334e6', '#007b83', '#c5221f'];

function colourOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return COLOURS[Math.abs(hash) % COLOURS.length];
}

/**
 * The live session of an existing page (docs/collab.md): a Y.Doc kept for as long as the
 * editor is open, so typing while offline stays in it and merges when the socket comes back.
 */
export function useCollab(slug: string | null, name: string): CollabSession | null {
  const parts = useMemo(() => {
    if (slug === null) return null;
    const doc = new Doc();
    const text = doc.getText('markdown');
    const base = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}`;
    const provider = new WebsocketProvider(`${base}/collab`, slug, doc, {
      disableBc: true,
      maxBackoffTime: 2000,
    });
    return { doc, text, provider, undoManager: new UndoManager(text) };
  }, [slug]);
  const [online, setOnline] = useState(false);
  const [synced, setSynced] = useState(false);
  const [names, setNames] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [ended, setEnded] = useState(false);

  useEffect(() => {
    if (!parts) return;
    const { provider, doc } = parts;
    provider.awareness.setLocalStateField('user', { name, color: colourOf(name) });
    const onStatus = ({ status }: { status: string }) => setOnline(status === 'connected');
    // A socket can stay "open" for a while after the network went: the browser knows sooner.
    // Offline, typing goes into the Y.Doc; back online, the provider syncs both ways.
    const offline = () => provider.disconnect();
    const online = () => provider.connect();
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    const onSync = (isSynced: boolean) => isSynced && setSynced(true);
    const onAwareness = () =>
      setNames(
        [...provider.awareness.getStates().values()]
          .map((s) => (s as { user?: { name?: string } }).user?.name)
          .filter((n): n is string => typeof n === 'string')
          .filter((n, i, all) => all.indexOf(n) === i)
          .sort(),
      );
    provider.on('status', onStatus);
    provider.on('sync', onSync);
    provider.awareness.on('change', onAwareness);
    provider.messageHandlers[MESSAGE_NOTICE] = (_encoder, decoder) => {
      const message = JSON.parse(decoding.readVarString(decoder)) as Notice;
      if (message.type === 'saved')
        setNotice(`Saved as revision ${message.revision} by ${message.author}.`);
      else if (message.type === 'moved') setNotice(`The page moved to ${message.slug}.`);
      else if (message.type === 'ended') {
        setNotice(message.message);
        setEnded(true);
        provider.disconnect();
      }
    };
    onAwareness();
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      provider.destroy();
      doc.destroy();
    };
  }, [parts, name]);

  if (!parts) return null;
  return {
    text: parts.text,
    awareness: parts.provider.awareness,
    undoManager: parts.undoManager,
    online,
    synced,
    names,
    notice,
    ended,
    save() {
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE_SAVE);
      if (parts.provider.wsconnected) parts.provider.ws?.send(encoding.toUint8Array(encoder));
    },
  };
}
