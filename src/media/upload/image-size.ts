import type { ImageMime } from './file-type';

/** Reads `length` bytes at `offset` (fewer at the end of the file). */
export type ByteReader = (offset: number, length: number) => Promise<Buffer>;

export interface ImageSize {
  width: number;
  height: number;
}

/** The largest side we accept; larger headers are corrupt or decompression bombs. */
const MAX_SIDE = 65_535;

function sane(width: number, height: number): ImageSize | null {
  if (!Number.isInteger(width) || !Number.isInteger(height)) return null;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return null;
  return { width, height };
}

async function pngSize(read: ByteReader): Promise<ImageSize | null> {
  // Signature (8), then the IHDR chunk: length (4) "IHDR" (4) width (4) height (4).
  const b = await read(0, 24);
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return sane(b.readUInt32BE(16), b.readUInt32BE(20));
}

async function gifSize(read: ByteReader): Promise<ImageSize | null> {
  // Header (6), then the logical screen descriptor: width, height as little-endian uint16.
  const b = await read(0, 10);
  if (b.length < 10) return null;
  return sane(b.readUInt16LE(6), b.readUInt16LE(8));
}

async function webpSize(read: ByteReader): Promise<ImageSize | null> {
  const b = await read(0, 30);
  if (b.length < 30) return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    // Lossy: frame tag (3), start code 9d 01 2a, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return sane(b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    // Lossless: signature 0x2f, then 14 bits width-1 and 14 bits height-1.
    if (b[20] !== 0x2f) return null;
    const bits = b.readUInt32LE(21);
    return sane((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    // Extended: flags (4), then 24-bit canvas width-1 and height-1.
    return sane(b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
  }
  return null;
}

/** Start-of-frame markers carry the frame size (all SOFn except DHT C4, JPG C8, DAC CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

async function jpegSize(read: ByteReader): Promise<ImageSize | null> {
  // Walk the segments after SOI until a start-of-frame; EXIF and ICC segments may be large.
  let offset = 2;
  for (let segments = 0; segments < 1000; segments++) {
    const head = await read(offset, 9);
    if (head.length < 4 || head[0] !== 0xff) return null;
    const marker = head[1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / scan before any frame
    const length = head.readUInt16BE(2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (head.length < 9) return null;
      return sane(head.readUInt16BE(7), head.readUInt16BE(5));
    }
    offset += 2 + length;
  }
  return null;
}

/** Width and height from the format's header, or null when the header is missing or corrupt. */
export function readImageSize(mime: ImageMime, read: ByteReader): Promise<ImageSize | null> {
  switch (mime) {
    case 'image/png':
      return pngSize(read);
    case 'image/gif':
      return gifSize(read);
    case 'image/webp':
      return webpSize(read);
    case 'image/jpeg':
      return jpegSize(read);
  }
}
