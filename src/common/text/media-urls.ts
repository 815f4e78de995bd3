/**
 * The one definition of a stored-media URL in page Markdown (`/api/images/<uuid>/content`,
 * `/api/attachments/<uuid>/content`; see docs/CONTRACTS.md). Only root-relative references
 * count: an absolute URL of another server is left alone. Used by the pages module (references
 * recorded on save), import (re-import reuse, link resolution) and export (rewriting).
 */
const MEDIA_PATH = String.raw`\/api\/(images|attachments)\/([0-9a-fA-F-]{36})\/content(?![\w/-])`;
const MEDIA_REFERENCE = new RegExp(String.raw`(?<![\w/.-])` + MEDIA_PATH, 'g');
/** The same, also written with a scheme and host ("Copy image address" in a browser). */
const MEDIA_REFERENCE_ANY_HOST = new RegExp(
  String.raw`(?<![\w/.-])(?:https?:\/\/[A-Za-z0-9.-]+(?::\d+)?)?` + MEDIA_PATH,
  'g',
);

export type MediaReferenceKind = 'image' | 'attachment';

export interface MediaReference {
  kind: MediaReferenceKind;
  id: string;
}

/** The URL a stored image or attachment is served at. */
export function mediaUrl(kind: MediaReferenceKind, id: string): string {
  return `/api/${kind === 'image' ? 'images' : 'attachments'}/${id}/content`;
}

/** The whole of a link target or `src`: a media path, then at most a query or fragment. */
const MEDIA_TARGET = new RegExp(`^${MEDIA_PATH}(?:[?#].*)?$`, 'i');

/**
 * The stored image or attachment a link target or `src` is the URL of (root-relative, optionally
 * with a query or fragment), or null: reports check it, print inlines it.
 */
export function mediaReferenceAt(target: string): MediaReference | null {
  const match = MEDIA_TARGET.exec(target);
  if (!match) return null;
  return {
    kind: match[1].toLowerCase() === 'images' ? 'image' : 'attachment',
    id: match[2].toLowerCase(),
  };
}

/** Whether a link target is a path under the media routes (left as written by import). */
export function isMediaPath(target: string): boolean {
  return target.startsWith('/api/images/') || target.startsWith('/api/attachments/');
}

/** Referenced media in order of first use, each once (ids lower-cased). */
export function findMediaReferences(markdown: string): MediaReference[] {
  return collectReferences(markdown, MEDIA_REFERENCE);
}

function collectReferences(markdown: string, pattern: RegExp): MediaReference[] {
  const seen = new Map<string, MediaReference>();
  for (const match of markdown.matchAll(pattern)) {
    const id = match[2].toLowerCase();
    if (!seen.has(id)) seen.set(id, { kind: match[1] === 'images' ? 'image' : 'attachment', id });
  }
  return [...seen.values()];
}

/** Ids of the stored images and attachments the Markdown references, each once. */
export function findMediaIds(markdown: string): string[] {
  return findMediaReferences(markdown).map((ref) => ref.id);
}

/**
 * The media ids a page is recorded as using (its readers may see them; a used file is not
 * deleted): root-relative references and absolute ones of any host, since kb does not know
 * every name it is reached by and a pasted image address is absolute.
 */
export function findUsedMediaIds(markdown: string): string[] {
  return collectReferences(markdown, MEDIA_REFERENCE_ANY_HOST).map((ref) => ref.id);
}

/** Replaces each reference whose id `target` maps; others stay as written. */
export function rewriteMediaReferences(
  markdown: string,
  target: (ref: MediaReference) => string | undefined,
): string {
  return markdown.replace(MEDIA_REFERENCE, (whole, kind: string, id: string) => {
    const next = target({ kind: kind === 'images' ? 'image' : 'attachment', id: id.toLowerCase() });
    return next ?? whole;
  });
}
