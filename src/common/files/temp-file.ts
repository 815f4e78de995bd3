import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tempFolder } from './temp-folder';

/** How many leading bytes a TempFile keeps: what content sniffing looks at. */
export const SNIFF_BYTES = 4096;

/** A file written to the temp folder while being hashed and counted. */
export interface TempFile {
  path: string;
  sha256: string;
  size: number;
  /** The first bytes, for type detection. */
  head: Buffer;
}

/** Raised by the byte counter when a stream passes its limit; mapped to 413 by the caller. */
export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

/** Hashes, counts and keeps the head of everything that passes; fails past `maxBytes`. */
class HashingCounter extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new TooLargeError(this.maxBytes));
      return;
    }
    if (this.headLength < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(part));
      this.headLength += part.length;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

/**
 * Streams `source` into a new file under `<dataDir>/tmp` (or `folder`), hashing as it goes;
 * never holds the whole body in memory. On any failure (limit, aborted source) the partial
 * file is removed before the promise rejects, so nothing is left on disk.
 */
export async function writeTempFile(
  source: Readable,
  dataDir: string,
  maxBytes: number,
  folder = tempFolder(dataDir),
): Promise<TempFile> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, `upload-${randomUUID()}`);
  const counter = new HashingCounter(maxBytes);
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  try {
    await pipeline(source, counter, out);
  } catch (error) {
    // Let the descriptor close first: removing a file still being opened would leave it behind.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await rm(path, { force: true });
    throw error;
  }
  return { path, sha256: counter.hash.digest('hex'), size: counter.size, head: counter.head() };
}
