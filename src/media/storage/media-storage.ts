import type { Readable } from 'node:stream';

/** An inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  size: number;
  /** When the content was last written or `put` again (the orphan sweeper's grace counts from it). */
  modifiedAt: Date;
}

/** One stored content, as a listing of the store gives it. */
export interface StoredEntry {
  sha256: string;
  modifiedAt: Date;
}

/**
 * Content-addressed blob store for media bytes, keyed by the lowercase hex SHA-256 of the
 * content. Writing the same content twice stores it once. Metadata (names, types, owners)
 * lives in the database, never here.
 *
 * The shape is chosen so an S3-compatible store fits it 1:1: `put` = PutObject (multipart
 * upload from the temp file, optionally `If-None-Match: *`), `stat` = HeadObject,
 * `createReadStream` = GetObject with `Range`, `delete` = DeleteObject, `exists` = HeadObject.
 * Keys would be `<prefix>/ab/cd/<sha256>` as on disk.
 */
export interface MediaStorage {
  /**
   * Stores the finished file at `sourcePath` under `sha256` (which the caller computed while
   * writing it). Idempotent: if the content is already stored, nothing is written but its
   * modification time is renewed, so a sweep of orphans (MediaSweeper) cannot take content an
   * import has just reused while its row is still uncommitted. The source file is left in
   * place; the caller removes it.
   */
  put(sha256: string, sourcePath: string): Promise<void>;
  /** Size of the stored content, or null when it is not stored. */
  stat(sha256: string): Promise<StoredObject | null>;
  exists(sha256: string): Promise<boolean>;
  /** The content, or the inclusive `range` of it. Rejects if the content is not stored. */
  createReadStream(sha256: string, range?: ByteRange): Promise<Readable>;
  /** Removes the content; no error when it is already gone. */
  delete(sha256: string): Promise<void>;
  /** Every stored content, in no particular order, read a page at a time. */
  list(): AsyncIterable<StoredEntry>;
}

export const MEDIA_STORAGE = Symbol('MEDIA_STORAGE');

export const SHA256_HEX = /^[0-9a-f]{64}$/;
