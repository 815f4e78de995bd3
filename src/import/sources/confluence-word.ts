import { posix } from 'node:path';
import type { SourceEntry } from '../import.types';
import {
  isBinaryWordDocument,
  isMimeDocument,
  MimePart,
  parseMimeDocument,
  partText,
} from './mhtml';

/** Extensions a Confluence "Export to Word" file arrives with (or is renamed to). */
export const WORD_EXTENSIONS = new Set(['.doc', '.docx', '.mht', '.mhtml']);

const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
  'image/bmp': '.bmp',
};

export interface WordExport {
  /** The page's HTML, its embedded images pointing at the files below. */
  html: string;
  files: SourceEntry[];
}

export const WORD_REFUSAL =
  'is a Word document, which kb does not convert; export the space from Confluence as HTML or XML (Space tools → Content tools → Export) and import that ZIP';

/**
 * A Confluence "Export to Word" `.doc` is really MHTML: the HTML part is decoded
 * (quoted-printable, its charset) and each embedded image becomes a file beside the page
 * (`<name>.files/1.png`), referenced from the HTML. A binary Word file, or MIME without an
 * HTML part, is refused with the reason.
 */
export function readWordExport(entry: SourceEntry): WordExport | string {
  if (!isMimeDocument(entry.data)) {
    return isBinaryWordDocument(entry.data)
      ? WORD_REFUSAL
      : 'is neither HTML nor a Confluence Word (MHTML) export';
  }
  const parts = parseMimeDocument(entry.data);
  const main = parts?.find((part) => part.contentType === 'text/html');
  if (!parts || !main) return 'is a MIME document without an HTML part';
  let html = partText(main);
  if (html === undefined)
    return `is a MIME document whose HTML is not ${main.charset ?? 'UTF-8'} text`;
  const folder = `${entry.path}.files`;
  const files: SourceEntry[] = [];
  const byReference = new Map<string, string>();
  parts
    .filter((part) => part !== main && part.contentType.startsWith('image/'))
    .forEach((part, index) => {
      const path = `${folder}/${index + 1}${extensionFor(part)}`;
      files.push({ path, upload: entry.upload, data: part.data });
      for (const reference of references(part)) byReference.set(reference, path);
    });
  const dir = posix.dirname(entry.path);
  // Embedded images point at their part (by location, file name or cid:); the server URL
  // Confluence keeps beside it (data-image-src) is dropped, as the export has the bytes.
  html = html.replace(/<img\b[^>]*>/gi, (tag) => {
    const src = /\bsrc\s*=\s*(["'])([^"']*)\1/i.exec(tag)?.[2];
    const path =
      src === undefined
        ? undefined
        : (byReference.get(src) ?? byReference.get(posix.basename(src)));
    if (!path) return tag;
    const local = encodeURI(posix.relative(dir === '.' ? '' : dir, path));
    return tag
      .replace(/\sdata-image-src\s*=\s*(["'])[^"']*\1/i, '')
      .replace(/\bsrc\s*=\s*(["'])[^"']*\1/i, `src="${local}"`);
  });
  return { html, files };
}

function extensionFor(part: MimePart): string {
  const named = part.location ? posix.extname(part.location.split(/[?#]/)[0]) : '';
  return IMAGE_EXTENSIONS[part.contentType] ?? (named && named !== '.tmp' ? named : '.bin');
}

/** How the HTML may name an embedded part: its location, its file name, `cid:<id>`. */
function references(part: MimePart): string[] {
  const refs: string[] = [];
  if (part.location) refs.push(part.location, posix.basename(part.location));
  if (part.contentId) refs.push(`cid:${part.contentId}`);
  return refs;
}
