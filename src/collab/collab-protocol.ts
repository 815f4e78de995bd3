import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';

/**
 * The messages of the y-websocket protocol (y-protocols' sync and awareness, framed by a
 * leading message type), as the `y-websocket` client provider speaks them, and kb's two own:
 * a Save request from an editor and a notice to the editors (saved, moved, ended).
 */
export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_AUTH = 2;
export const MESSAGE_QUERY_AWARENESS = 3;
/** Client → server: write the shared text as a revision now (Save, Ctrl+S). */
export const MESSAGE_SAVE = 100;
/** Server → client: a JSON notice ({type: 'saved' | 'moved' | 'ended' | 'readOnly', ...}). */
export const MESSAGE_NOTICE = 101;
/**
 * Between kb processes only (the fan-out, never to a browser): a stored update with the
 * person who typed it, so every process knows the co-authors and the last typist.
 */
export const MESSAGE_REMOTE_UPDATE = 102;
/** Between kb processes only: a revision was written from the session (JSON RemoteSaved). */
export const MESSAGE_REMOTE_SAVED = 103;

/** What a process that wrote a session's revision tells the others of the page. */
export interface RemoteSaved {
  revision: number;
  author: string;
  coAuthors: string[];
  /** The text written: the others' base for what is typed next. */
  content: string;
}

/** What the server tells the editors of a page besides the document itself. */
export type CollabNotice =
  | { type: 'saved'; revision: number; author: string; coAuthors: string[] }
  | { type: 'moved'; slug: string }
  | { type: 'ended'; message: string }
  | { type: 'readOnly' };

export function noticeMessage(notice: CollabNotice): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_NOTICE);
  encoding.writeVarString(encoder, JSON.stringify(notice));
  return encoding.toUint8Array(encoder);
}

export function readNotice(decoder: decoding.Decoder): CollabNotice {
  return JSON.parse(decoding.readVarString(decoder)) as CollabNotice;
}

export function saveMessage(): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, MESSAGE_SAVE);
  return encoding.toUint8Array(encoder);
}

/**
 * Characters a Yjs update inserts, read from its decoded structs: it throws on a malformed
 * update, so nothing malformed reaches the document, and the count lets a document refuse to
 * grow past the page size limit before it changes.
 */
export function insertedLength(update: Uint8Array): number {
  const { structs } = Y.decodeUpdate(update);
  let length = 0;
  for (const struct of structs) {
    if (struct instanceof Y.Item && struct.content instanceof Y.ContentString)
      length += struct.content.str.length;
  }
  return length;
}
