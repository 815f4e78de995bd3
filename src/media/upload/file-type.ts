/**
 * Content sniffing from the bytes, never the name or the client's Content-Type. Only the
 * formats we serve as images are parsed fully (with their dimensions); for attachments we only
 * need to know the container family so dangerous types are never stored as such.
 */

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export const IMAGE_MIME_TYPES: readonly ImageMime[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

/** How many leading bytes detection looks at (what an upload's TempFile keeps). */
export { SNIFF_BYTES } from '../../common/files/temp-file';

function startsWith(head: Buffer, bytes: number[], offset = 0): boolean {
  if (head.length < offset + bytes.length) return false;
  return bytes.every((b, i) => head[offset + i] === b);
}

function ascii(head: Buffer, offset: number, text: string): boolean {
  return (
    head.length >= offset + text.length &&
    head.toString('latin1', offset, offset + text.length) === text
  );
}

/** One of the four image formats, from its magic number, or null. */
export function detectImageType(head: Buffer): ImageMime | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return 'image/gif';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return 'image/webp';
  return null;
}

/** Binary formats recognised for attachments (all safe to hand to a browser as a download). */
const BINARY_SIGNATURES: { mime: string; test: (head: Buffer) => boolean }[] = [
  { mime: 'application/pdf', test: (h) => ascii(h, 0, '%PDF-') },
  {
    mime: 'application/zip',
    test: (h) => startsWith(h, [0x50, 0x4b, 0x03, 0x04]) || startsWith(h, [0x50, 0x4b, 0x05, 0x06]),
  },
  { mime: 'application/gzip', test: (h) => startsWith(h, [0x1f, 0x8b]) },
  {
    mime: 'application/x-7z-compressed',
    test: (h) => startsWith(h, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]),
  },
  { mime: 'application/x-bzip2', test: (h) => ascii(h, 0, 'BZh') },
  { mime: 'application/x-tar', test: (h) => ascii(h, 257, 'ustar') },
  { mime: 'image/bmp', test: (h) => ascii(h, 0, 'BM') && h.length > 14 },
  {
    mime: 'image/tiff',
    test: (h) => startsWith(h, [0x49, 0x49, 0x2a, 0x00]) || startsWith(h, [0x4d, 0x4d, 0x00, 0x2a]),
  },
  { mime: 'audio/mpeg', test: (h) => ascii(h, 0, 'ID3') },
  { mime: 'audio/ogg', test: (h) => ascii(h, 0, 'OggS') },
  { mime: 'audio/wav', test: (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WAVE') },
  { mime: 'video/mp4', test: (h) => ascii(h, 4, 'ftyp') },
  { mime: 'video/webm', test: (h) => startsWith(h, [0x1a, 0x45, 0xdf, 0xa3]) },
  { mime: 'application/x-msdownload', test: (h) => ascii(h, 0, 'MZ') },
  {
    mime: 'application/vnd.ms-office',
    test: (h) => startsWith(h, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  },
];

/** Extensions whose specific type we may keep when the bytes are of the matching family. */
const ZIP_FAMILY: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip',
};
const TEXT_FAMILY: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  json: 'application/json',
};

export const OCTET_STREAM = 'application/octet-stream';
export const TEXT_PLAIN = 'text/plain; charset=utf-8';

/** True when the (leading) bytes decode as UTF-8 text without NULs or stray control bytes. */
export function looksLikeText(head: Buffer, complete: boolean): boolean {
  if (head.length === 0) return true;
  // A multi-byte character may be cut at the end of a partial read.
  let bytes = head;
  if (!complete) {
    let cut = bytes.length;
    for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
      if ((bytes[i] & 0xc0) === 0xc0) {
        cut = i;
        break;
      }
      if ((bytes[i] & 0x80) === 0) break;
    }
    bytes = bytes.subarray(0, cut);
  }
  for (const b of bytes) {
    if (b === 0 || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b))
      return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Markup and script that a browser could run: never stored with its own type. */
export function looksLikeActiveContent(head: Buffer): boolean {
  const text = head
    .toString('utf8', 0, Math.min(head.length, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return /^<(\?xml|!doctype|html|svg|script|head|body|iframe|\?php|!--|xsl|x:|rdf)/.test(text);
}

/**
 * The type an attachment is stored and served with: a recognised binary type, a safe text type
 * chosen by the extension, plain text, or application/octet-stream. HTML, SVG, XML and script
 * are never given a type a browser would render or run.
 */
export function detectAttachmentType(head: Buffer, complete: boolean, filename: string): string {
  const image = detectImageType(head);
  if (image) return image;
  const ext = /\.([a-z0-9]{1,10})$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  for (const signature of BINARY_SIGNATURES) {
    if (signature.test(head)) {
      if (signature.mime === 'application/zip' && ZIP_FAMILY[ext]) return ZIP_FAMILY[ext];
      return signature.mime;
    }
  }
  if (looksLikeText(head, complete)) {
    if (looksLikeActiveContent(head)) return OCTET_STREAM;
    return TEXT_FAMILY[ext] ?? TEXT_PLAIN;
  }
  return OCTET_STREAM;
}
