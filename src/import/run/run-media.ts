import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AuthUser } from '../../common/auth/auth-user';
import type { Tx } from '../../common/database/database';
import { Problem } from '../../common/problems/problem';
import { findMediaIds } from '../../common/text/media-urls';
import type { MediaService } from '../../media/public-api';
import { detectImageType, sanitizeFilename, SNIFF_BYTES } from '../../media/public-api';
import type { MediaKindOf } from '../reference-resolver';
import type { SourceEntry } from '../import.types';

/** Files handed to the media service at once. */
const MEDIA_CONCURRENCY = 4;

export interface StoredMedia {
  url: string;
  id: string;
  sha256: string;
}

/** An image type the media rules accept (PNG, JPEG, GIF, WebP), by its bytes. */
export function isStorableImage(data: Buffer): boolean {
  return detectImageType(data.subarray(0, SNIFF_BYTES)) !== null;
}

export function mediaKey(kind: MediaKindOf, data: Buffer): string {
  return `${kind}:${createHash('sha256').update(data).digest('hex')}`;
}

/** The name a file of the import is stored under (as the media service cleans it). */
export function mediaName(path: string, kind: MediaKindOf): string {
  return sanitizeFilename(path.split('/').pop(), kind === 'image' ? 'image' : 'file');
}

/** A stored medium the import may reuse, with the name it was stored under. */
export interface ReusableMedia extends StoredMedia {
  filename: string;
}

/**
 * Media the pages about to be replaced already reference, by kind and sha256 (several when
 * files of the same bytes were stored under different names): importing the same files again
 * reuses them, so an unchanged re-import leaves the pages unchanged.
 */
export async function reusableMedia(
  media: MediaService,
  existing: { content: string }[],
): Promise<Map<string, ReusableMedia[]>> {
  const ids = new Set<string>();
  for (const page of existing) for (const id of findMediaIds(page.content)) ids.add(id);
  const reusable = new Map<string, ReusableMedia[]>();
  for (const id of [...ids].sort()) {
    const found = await media.findById(id);
    if (!found) continue;
    const key = `${found.kind}:${found.sha256}`;
    const item = { id: found.id, url: found.url, sha256: found.sha256, filename: found.filename };
    reusable.set(key, [...(reusable.get(key) ?? []), item]);
  }
  return reusable;
}

/**
 * The medium to reuse for a file: among those of its bytes, the one stored under its name
 * (an image may have got its type's extension), else the first. Two files of the same bytes
 * under two names each keep their own medium, so a re-import picks what the first import
 * stored and no page changes.
 */
export function pickReusable(
  candidates: ReusableMedia[] | undefined,
  name: string,
): ReusableMedia | undefined {
  if (!candidates?.length) return undefined;
  return (
    candidates.find((c) => c.filename === name) ??
    candidates.find((c) => c.filename.startsWith(`${name}.`)) ??
    candidates[0]
  );
}

/**
 * Stores files as media a few at a time, inside `tx`. `written` collects the sha256 of every
 * stored file as soon as it is on disk (the caller removes them if the transaction rolls
 * back); a file the media rules refuse comes back as its Problem.
 */
export class MediaBatchWriter {
  readonly written: string[] = [];

  constructor(
    private readonly media: MediaService,
    private readonly tx: Tx,
    private readonly actor: AuthUser,
  ) {}

  async storeAll(
    pending: [string, MediaKindOf, SourceEntry][],
    afterBatch: (done: number) => void,
  ): Promise<Map<string, StoredMedia | Problem>> {
    const outcomes = new Map<string, StoredMedia | Problem>();
    for (let i = 0; i < pending.length; i += MEDIA_CONCURRENCY) {
      const batch = pending.slice(i, i + MEDIA_CONCURRENCY);
      // allSettled, not all: nothing may still be writing when the transaction rolls back.
      const results = await Promise.allSettled(
        batch.map(([path, kind, entry]) => this.store(entry, path, kind)),
      );
      for (const result of results) {
        if (result.status === 'fulfilled' && !(result.value instanceof Problem))
          this.written.push(result.value.sha256);
      }
      for (const [index, result] of results.entries()) {
        if (result.status === 'rejected') throw result.reason;
        outcomes.set(batch[index][0], result.value);
      }
      afterBatch(i + batch.length);
    }
    return outcomes;
  }

  private async store(
    entry: SourceEntry,
    path: string,
    kind: MediaKindOf,
  ): Promise<StoredMedia | Problem> {
    const name = path.split('/').pop() ?? path;
    try {
      const stored = await this.media.storeFile(
        Readable.from([entry.data]),
        name,
        kind,
        this.actor.id,
        this.tx,
      );
      return { url: stored.url, id: stored.id, sha256: stored.sha256 };
    } catch (error) {
      if (error instanceof Problem && error.status < 500) return error;
      throw error;
    }
  }
}
