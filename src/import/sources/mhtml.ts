/**
 * MIME `multipart/related` documents (MHTML) as Confluence writes its "Export to Word" `.doc`
 * files: a mail-like header, then an HTML part (usually quoted-printable) and the embedded
 * images (base64) named by `Content-Location` / `Content-ID`. Pure functions over the bytes.
 */
export interface MimePart {
  contentType: string;
  charset?: string;
  location?: string;
  contentId?: string;
  data: Buffer;
}

const HEAD_BYTES = 4096;

/** True when the bytes start like a MIME message holding a multipart/related document. */
export function isMimeDocument(data: Buffer): boolean {
  const head = data.subarray(0, HEAD_BYTES).toString('latin1');
  return (
    /^(?:[A-Za-z][\w-]*:[^\n]*\r?\n(?:[ \t][^\n]*\r?\n)*)*?MIME-Version:/i.test(head) &&
    /Content-Type:\s*multipart\/related/i.test(head)
  );
}

/** True for a binary Word document (OLE2 compound file or Office Open XML). */
export function isBinaryWordDocument(data: Buffer): boolean {
  return (
    (data.length >= 8 &&
      data.readUInt32BE(0) === 0xd0cf11e0 &&
      data.readUInt32BE(4) === 0xa1b11ae1) ||
    (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50)
  );
}

interface Headers {
  [name: string]: string;
}

function parseHeaders(block: string): Headers {
  const headers: Headers = {};
  // Folded header lines continue with whitespace.
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

function parameter(value: string | undefined, name: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(
    value ?? '',
  );
  return match ? (match[1] ?? match[2]) : undefined;
}

/** Quoted-printable (RFC 2045 §6.7): soft line breaks removed, `=XX` decoded to bytes. */
export function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const c = joined.charCodeAt(i);
    if (c === 0x3d && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(c & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function splitHead(text: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) return { head: text, body: '' };
  return { head: text.slice(0, match.index), body: text.slice(match.index + match[0].length) };
}

/**
 * The parts of a multipart/related MIME document; undefined when it is not one (no boundary).
 * The text is handled as latin1 so every byte survives until each part is decoded.
 */
export function parseMimeDocument(data: Buffer): MimePart[] | undefined {
  const text = data.toString('latin1');
  const { head, body } = splitHead(text);
  const boundary = parameter(parseHeaders(head)['content-type'], 'boundary');
  if (!boundary) return undefined;
  const parts: MimePart[] = [];
  const delimiter = `--${boundary}`;
  for (const chunk of body.split(delimiter).slice(1)) {
    if (chunk.startsWith('--')) break;
    const part = splitHead(chunk.replace(/^\r?\n/, ''));
    const headers = parseHeaders(part.head);
    const raw = part.body.replace(/\r?\n$/, '');
    const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
    const decoded =
      encoding === 'base64'
        ? Buffer.from(raw.replace(/\s+/g, ''), 'base64')
        : encoding === 'quoted-printable'
          ? decodeQuotedPrintable(raw)
          : Buffer.from(raw, 'latin1');
    const type = headers['content-type'] ?? 'text/plain';
    parts.push({
      contentType: type.split(';')[0].trim().toLowerCase(),
      charset: parameter(type, 'charset')?.toLowerCase(),
      location: headers['content-location'],
      contentId: headers['content-id']?.replace(/^<|>$/g, ''),
      data: decoded,
    });
  }
  return parts;
}

/** A text part in its declared charset (UTF-8 when none); undefined when it cannot be read. */
export function partText(part: MimePart): string | undefined {
  try {
    return new TextDecoder(part.charset ?? 'utf-8', { fatal: true }).decode(part.data);
  } catch {
    return undefined;
  }
}
