import * as zlib from 'node:zlib';
import { ImportBudget } from '../import-budget';
import type { ZipSource } from './zip-source';

export { bufferSource, fileSource, type ZipSource } from './zip-source';

export class ZipFormatError extends Error {
  constructor(
    readonly code: 'zip_corrupt' | 'zip_encrypted' | 'zip_unsupported',
    message: string,
  ) {
    super(message);
  }
}

export interface ZipEntryInfo {
  /** The name as stored (decoded), before any normalisation. */
  name: string;
  isDirectory: boolean;
  /** Unix mode bits in the external attributes say symbolic link. */
  isSymlink: boolean;
  encrypted: boolean;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** Entries this small (compressed and declared) inflate synchronously: a thread-pool round trip costs more. */
const SYNC_INFLATE_BYTES = 64 * 1024;
const SYNC_INFLATE_OUTPUT_BYTES = 1024 * 1024;
/** Output piece size of the streaming inflater: the budget is checked after each one. */
const INFLATE_CHUNK_BYTES = 256 * 1024;
const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeName(bytes: Buffer, utf8Flag: boolean): string {
  if (utf8Flag) return bytes.toString('utf8');
  try {
    return utf8.decode(bytes);
  } catch {
    // Neither flagged nor valid UTF-8: old tools write CP437; latin1 keeps ASCII names intact.
    return bytes.toString('latin1');
  }
}

function corrupt(message: string): ZipFormatError {
  return new ZipFormatError('zip_corrupt', message);
}

/** Where the central directory is and how many records it holds. */
interface DirectoryLocation {
  entryCount: number;
  directorySize: number;
  directoryOffset: number;
}

/**
 * Reads the central directory (the authoritative list of entries; local headers can lie). The
 * entry count is charged to the budget before a single record is parsed.
 */
export async function readZipDirectory(
  source: ZipSource,
  budget: ImportBudget,
): Promise<ZipEntryInfo[]> {
  const { entryCount, directorySize, directoryOffset } = await locateDirectory(source);
  budget.countEntries(entryCount);
  if (directoryOffset + directorySize > source.size)
    throw corrupt('has a central directory outside the file');
  const directory = await source.read(directoryOffset, directorySize);
  const entries: ZipEntryInfo[] = [];
  let position = 0;
  for (let n = 0; n < entryCount; n++) {
    const record = readDirectoryRecord(directory, position);
    entries.push(record.entry);
    position = record.next;
  }
  return entries;
}

/** The end-of-central-directory record (searched backwards past a comment), or its ZIP64 form. */
async function locateDirectory(source: ZipSource): Promise<DirectoryLocation> {
  if (source.size < 22) throw corrupt('is not a ZIP archive (too short)');
  const tailLength = Math.min(source.size, 22 + 0xffff);
  const tail = await source.read(source.size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw corrupt('is not a ZIP archive (no end of central directory)');
  const location: DirectoryLocation = {
    entryCount: tail.readUInt16LE(eocd + 10),
    directorySize: tail.readUInt32LE(eocd + 12),
    directoryOffset: tail.readUInt32LE(eocd + 16),
  };
  const saturated =
    location.entryCount === 0xffff ||
    location.directorySize === 0xffffffff ||
    location.directoryOffset === 0xffffffff;
  if (!saturated) return location;
  return (await readZip64Location(source, source.size - tailLength + eocd)) ?? location;
}

/** The ZIP64 end record, found through the locator just before the classic one, if there is one. */
async function readZip64Location(
  source: ZipSource,
  eocdPosition: number,
): Promise<DirectoryLocation | undefined> {
  const locatorPosition = eocdPosition - 20;
  const locator = locatorPosition >= 0 ? await source.read(locatorPosition, 20) : Buffer.alloc(0);
  if (locator.length !== 20 || locator.readUInt32LE(0) !== ZIP64_LOCATOR_SIGNATURE)
    return undefined;
  const recordPosition = Number(locator.readBigUInt64LE(8));
  const record = await source.read(recordPosition, 56);
  if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE)
    throw corrupt('has a broken ZIP64 directory');
  return {
    entryCount: Number(record.readBigUInt64LE(32)),
    directorySize: Number(record.readBigUInt64LE(40)),
    directoryOffset: Number(record.readBigUInt64LE(48)),
  };
}

/** One central directory record at `position`, and where the next one starts. */
function readDirectoryRecord(
  directory: Buffer,
  position: number,
): { entry: ZipEntryInfo; next: number } {
  if (position + 46 > directory.length || directory.readUInt32LE(position) !== CENTRAL_SIGNATURE) {
    throw corrupt('has a damaged central directory');
  }
  const madeBy = directory.readUInt16LE(position + 4);
  const flags = directory.readUInt16LE(position + 8);
  const nameLength = directory.readUInt16LE(position + 28);
  const extraLength = directory.readUInt16LE(position + 30);
  const commentLength = directory.readUInt16LE(position + 32);
  const externalAttributes = directory.readUInt32LE(position + 38);
  const nameStart = position + 46;
  const extraStart = nameStart + nameLength;
  if (extraStart + extraLength + commentLength > directory.length)
    throw corrupt('has a damaged central directory');
  const name = decodeName(directory.subarray(nameStart, extraStart), (flags & 0x800) !== 0);
  const sizes = readZip64Extra(directory, extraStart, extraStart + extraLength, {
    compressedSize: directory.readUInt32LE(position + 20),
    uncompressedSize: directory.readUInt32LE(position + 24),
    localHeaderOffset: directory.readUInt32LE(position + 42),
  });
  return {
    entry: {
      name,
      ...fileKind(name, madeBy, externalAttributes),
      encrypted: (flags & 0x1) !== 0,
      method: directory.readUInt16LE(position + 10),
      crc32: directory.readUInt32LE(position + 16),
      ...sizes,
    },
    next: extraStart + extraLength + commentLength,
  };
}

type EntrySizes = Pick<ZipEntryInfo, 'compressedSize' | 'uncompressedSize' | 'localHeaderOffset'>;

/** ZIP64 extended information: only the fields whose 32-bit value is saturated are present. */
function readZip64Extra(
  directory: Buffer,
  extraStart: number,
  extraEnd: number,
  sizes: EntrySizes,
): EntrySizes {
  let { compressedSize, uncompressedSize, localHeaderOffset } = sizes;
  let extra = extraStart;
  while (extra + 4 <= extraEnd) {
    const id = directory.readUInt16LE(extra);
    const size = directory.readUInt16LE(extra + 2);
    if (id === 0x0001) {
      let field = extra + 4;
      if (uncompressedSize === 0xffffffff && field + 8 <= extra + 4 + size) {
        uncompressedSize = Number(directory.readBigUInt64LE(field));
        field += 8;
      }
      if (compressedSize === 0xffffffff && field + 8 <= extra + 4 + size) {
        compressedSize = Number(directory.readBigUInt64LE(field));
        field += 8;
      }
      if (localHeaderOffset === 0xffffffff && field + 8 <= extra + 4 + size) {
        localHeaderOffset = Number(directory.readBigUInt64LE(field));
      }
    }
    extra += 4 + size;
  }
  return { compressedSize, uncompressedSize, localHeaderOffset };
}

/** Directory or symbolic link, from the name and the Unix mode or DOS attributes. */
function fileKind(
  name: string,
  madeBy: number,
  externalAttributes: number,
): { isDirectory: boolean; isSymlink: boolean } {
  const hostSystem = madeBy >> 8;
  const unixMode = externalAttributes >>> 16;
  const isSymlink =
    (hostSystem === 3 || hostSystem === 19 || unixMode !== 0) && (unixMode & 0o170000) === 0o120000;
  const isDirectory =
    name.endsWith('/') ||
    (!isSymlink && (unixMode & 0o170000) === 0o040000) ||
    (externalAttributes & 0x10) !== 0;
  return { isDirectory, isSymlink };
}

/**
 * Inflates one entry, charging every byte really produced to the shared budget: zlib stops as
 * soon as the output would pass what is left of it, whatever the entry's declared size says.
 */
export async function readZipEntry(
  source: ZipSource,
  entry: ZipEntryInfo,
  budget: ImportBudget,
): Promise<Buffer> {
  if (entry.encrypted)
    throw new ZipFormatError('zip_encrypted', `holds an encrypted entry "${entry.name}"`);
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ZipFormatError(
      'zip_unsupported',
      `uses an unsupported compression method (${entry.method}) for "${entry.name}"`,
    );
  }
  // An entry that admits to being larger than what is left is refused without inflating it;
  // one that understates its size is still stopped by the byte count below.
  if (entry.uncompressedSize > budget.remainingBytes) budget.consumeBytes(entry.uncompressedSize);
  const header = await source.read(entry.localHeaderOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_SIGNATURE)
    throw corrupt(`has a damaged entry "${entry.name}"`);
  const dataStart =
    entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (dataStart + entry.compressedSize > source.size)
    throw corrupt(`has a truncated entry "${entry.name}"`);
  const compressed = await source.read(dataStart, entry.compressedSize);

  let data: Buffer;
  if (entry.method === 0) {
    budget.consumeBytes(compressed.length);
    data = compressed;
  } else {
    data = await inflateEntry(compressed, entry, budget);
  }
  if (data.length !== entry.uncompressedSize)
    throw corrupt(`has an entry whose size does not match its header: "${entry.name}"`);
  if (zlib.crc32(data) >>> 0 !== entry.crc32 >>> 0)
    throw corrupt(`has an entry with a bad checksum: "${entry.name}"`);
  return data;
}

async function inflateEntry(
  compressed: Buffer,
  entry: ZipEntryInfo,
  budget: ImportBudget,
): Promise<Buffer> {
  const declared = entry.uncompressedSize;
  if (compressed.length <= SYNC_INFLATE_BYTES && declared < SYNC_INFLATE_OUTPUT_BYTES) {
    // Small entries inflate synchronously, stopped past what they declare (under 1 MiB); one
    // that turns out larger is counted again by the streaming path below.
    try {
      const data = zlib.inflateRawSync(compressed, {
        maxOutputLength: Math.max(1, declared),
      });
      budget.consumeBytes(data.length);
      return data;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE')
        throw corrupt(`has an entry that does not inflate: "${entry.name}"`);
    }
  }
  const out = await inflateWithBudget(zlib.createInflateRaw, compressed, declared, budget);
  if (out === 'corrupt') throw corrupt(`has an entry that does not inflate: "${entry.name}"`);
  if (out === 'size_mismatch')
    throw corrupt(`has an entry whose size does not match its header: "${entry.name}"`);
  return out;
}

/**
 * Inflates piece by piece (INFLATE_CHUNK_BYTES at a time), charging every piece to the budget
 * the moment it is produced: passing the budget destroys the inflater at once (413), so a bomb
 * costs at most the budget plus one piece of work and never a buffer of the budget's size.
 * With a declared size, output is copied into a buffer of exactly that size; output beyond it
 * (a lying header) is only counted, not kept, until the stream ends (the caller's size check
 * refuses it) or the budget is passed.
 */
function inflateWithBudget(
  create: (options: zlib.ZlibOptions) => zlib.Inflate | zlib.InflateRaw | zlib.Gunzip,
  compressed: Buffer,
  declared: number | undefined,
  budget: ImportBudget,
): Promise<Buffer | 'corrupt' | 'size_mismatch'> {
  return new Promise((resolve, reject) => {
    const limit = budget.remainingBytes;
    const inflater = create({ chunkSize: INFLATE_CHUNK_BYTES });
    const target = declared === undefined ? undefined : Buffer.allocUnsafe(declared);
    const pieces: Buffer[] = [];
    let produced = 0;
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      fn();
    };
    inflater.on('data', (piece: Buffer) => {
      if (settled) return;
      if (produced + piece.length > limit) {
        inflater.destroy();
        settle(() => {
          try {
            budget.consumeBytes(limit + 1);
          } catch (problem) {
            reject(problem);
          }
        });
        return;
      }
      if (target === undefined) pieces.push(piece);
      else if (produced < target.length) piece.copy(target, produced);
      produced += piece.length;
    });
    inflater.on('error', () => settle(() => resolve('corrupt')));
    inflater.on('end', () =>
      settle(() => {
        if (target !== undefined && produced !== target.length) return resolve('size_mismatch');
        try {
          budget.consumeBytes(produced);
        } catch (problem) {
          return reject(problem);
        }
        resolve(target ?? Buffer.concat(pieces, produced));
      }),
    );
    inflater.end(compressed);
  });
}

/** Gunzips one `.gz` upload under the same budget, streaming like ZIP entries. */
export async function gunzipWithBudget(data: Buffer, budget: ImportBudget): Promise<Buffer> {
  const out = await inflateWithBudget(zlib.createGunzip, data, undefined, budget);
  if (typeof out === 'string') throw corrupt('is not a valid gzip file');
  return out;
}
