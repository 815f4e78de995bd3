/**
 * Stored media referenced from page Markdown (CONTRACTS: `/api/images/<uuid>/content`,
 * `/api/attachments/<uuid>/content`). Only root-relative references count: an absolute URL
 * of another server is left alone.
 */
const MEDIA_REFERENCE =
  /(?<![\w/.-])\/api\/(images|attachments)\/([0-9a-fA-F-]{36})\/content(?![\w/-])/g;

export type MediaReferenceKind = 'image' | 'attachment';

export interface MediaReference {
  kind: MediaReferenceKind;
  id: string;
}

/** Referenced media in order of first use, each once. */
export function findMediaReferences(markdown: string): MediaReference[] {
  const seen = new Map<string, MediaReference>();
  for (const match of markdown.matchAll(MEDIA_REFERENCE)) {
    const id = match[2].toLowerCase();
    if (!seen.has(id)) seen.set(id, { kind: match[1] === 'images' ? 'image' : 'attachment', id });
  }
  return [...seen.values()];
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

/** The relative path from the folder of `fromFile` to `toFile` (both archive paths, POSIX). */
export function relativeArchivePath(fromFile: string, toFile: string): string {
  const from = fromFile.split('/').slice(0, -1);
  const to = toFile.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common += 1;
  const ups = from.length - common;
  return [...Array<string>(ups).fill('..'), ...to.slice(common)].join('/');
}
