import { deflateSync } from 'node:zlib';

/**
 * Tiny but valid image encoders, so media tests upload real files generated on the fly
 * (checked with ImageMagick while writing them) instead of committed fixtures.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG; each pixel's colour comes from `pixel(x, y)` (default: a gradient). */
export function png(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number] = (x, y) => [x * 16, y * 16, 128],
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw.set([r & 0xff, g & 0xff, b & 0xff], row + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function segment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/**
 * A baseline grey JPEG (one component, every block mid-grey): one-symbol Huffman tables make
 * each 8x8 block two bits ("DC difference 0", "end of block"). `exifBytes` adds an APP1
 * segment of that size before the frame header, as cameras do.
 */
export function jpeg(width: number, height: number, exifBytes = 0): Buffer {
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  parts.push(segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0])));
  let remaining = exifBytes;
  while (remaining > 0) {
    const size = Math.min(remaining, 65_000);
    parts.push(
      segment(
        0xe1,
        Buffer.concat([
          Buffer.from('Exif\0\0', 'latin1'),
          Buffer.alloc(Math.max(0, size - 6), 0x20),
        ]),
      ),
    );
    remaining -= size;
  }
  parts.push(segment(0xdb, Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 1)])));
  const sof = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  parts.push(segment(0xc0, sof));
  const oneSymbolTable = (tableClass: number, symbol: number) =>
    Buffer.concat([
      Buffer.from([(tableClass << 4) | 0]),
      Buffer.from([1, ...new Array(15).fill(0)]),
      Buffer.from([symbol]),
    ]);
  parts.push(segment(0xc4, oneSymbolTable(0, 0x00)));
  parts.push(segment(0xc4, oneSymbolTable(1, 0x00)));
  parts.push(segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])));
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = '00'.repeat(blocks);
  const padded = bits + '1'.repeat((8 - (bits.length % 8)) % 8);
  const scan = Buffer.alloc(padded.length / 8);
  for (let i = 0; i < scan.length; i++) scan[i] = parseInt(padded.slice(i * 8, i * 8 + 8), 2);
  parts.push(scan, Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

/** Packs codes of `width` bits least-significant-bit first, as GIF's LZW stream wants. */
function packLsb(codes: number[], width: number): Buffer {
  const bytes: number[] = [];
  let acc = 0;
  let count = 0;
  for (const code of codes) {
    acc |= code << count;
    count += width;
    while (count >= 8) {
      bytes.push(acc & 0xff);
      acc >>>= 8;
      count -= 8;
    }
  }
  if (count > 0) bytes.push(acc & 0xff);
  return Buffer.from(bytes);
}

/** A two-colour GIF89a; pixel colour index from `pixel(x, y)` (0 or 1). */
export function gif(
  width: number,
  height: number,
  pixel: (x: number, y: number) => 0 | 1 = (x, y) => ((x + y) % 2) as 0 | 1,
): Buffer {
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  header[10] = 0x80; // global colour table of 2 entries
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  // LZW with minimum code size 2: a clear code before every pixel keeps codes 3 bits wide.
  const codes: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) codes.push(4, pixel(x, y));
  codes.push(5);
  const data = packLsb(codes, 3);
  const blocks: Buffer[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const chunk = data.subarray(i, i + 255);
    blocks.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat([
    header,
    palette,
    descriptor,
    Buffer.from([2]),
    ...blocks,
    Buffer.from([0, 0x3b]),
  ]);
}

/** Packs values of given bit widths least-significant-bit first (WebP lossless order). */
function packBits(fields: [value: number, bits: number][]): Buffer {
  const bytes: number[] = [];
  let acc = 0;
  let count = 0;
  for (const [value, bits] of fields) {
    for (let i = 0; i < bits; i++) {
      acc |= ((value >>> i) & 1) << count;
      count++;
      if (count === 8) {
        bytes.push(acc);
        acc = 0;
        count = 0;
      }
    }
  }
  if (count > 0) bytes.push(acc);
  return Buffer.from(bytes);
}

/**
 * A lossless (VP8L) WebP of one solid colour: five single-symbol prefix codes, so the pixels
 * themselves take no bits at all.
 */
export function webp(
  width: number,
  height: number,
  [r, g, b]: [number, number, number] = [200, 40, 90],
): Buffer {
  const simpleCode = (symbol: number): [number, number][] =>
    symbol < 2
      ? [
          [1, 1],
          [0, 1],
          [0, 1],
          [symbol, 1],
        ]
      : [
          [1, 1],
          [0, 1],
          [1, 1],
          [symbol, 8],
        ];
  const bits = packBits([
    [width - 1, 14],
    [height - 1, 14],
    [0, 1], // alpha unused
    [0, 3], // version
    [0, 1], // no transform
    [0, 1], // no colour cache
    [0, 1], // no meta prefix codes
    ...simpleCode(g),
    ...simpleCode(r),
    ...simpleCode(b),
    ...simpleCode(255),
    ...simpleCode(0), // distance
  ]);
  const vp8l = Buffer.concat([Buffer.from([0x2f]), bits]);
  const chunk = Buffer.concat([
    Buffer.from('VP8L', 'latin1'),
    u32le(vp8l.length),
    vp8l,
    vp8l.length % 2 ? Buffer.from([0]) : Buffer.alloc(0),
  ]);
  return Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    u32le(4 + chunk.length),
    Buffer.from('WEBP', 'latin1'),
    chunk,
  ]);
}

function u32le(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value);
  return b;
}

/** HTML that a careless server would render: what an attacker uploads as "photo.png". */
export const HTML_DISGUISED = Buffer.from(
  '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>\n',
);

export const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>\n',
);

/** Starts like a GIF but carries HTML and script after the header (a GIFAR-style polyglot). */
export const GIF_HTML_POLYGLOT = Buffer.concat([
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from([0x0a, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00]),
  Buffer.from('<html><script>alert("polyglot")</script></html>'),
]);
