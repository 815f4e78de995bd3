import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { AuthUser } from '../common/auth/auth-user';
import { InjectConfig } from '../common/config/app-config';
import type { FilesConfig } from '../common/config/database-config';
import type { MediaConfig } from '../common/config/media-config';
import type { Tx } from '../common/database/database';
import { cursorPosition, Paged, ListRequest, toPaged } from '../common/http/pagination';
import {
  ConflictProblem,
  fieldProblem,
  NotFoundProblem,
  UnsupportedMediaTypeProblem,
} from '../common/problems/problem';
import { MediaEntity, MediaKind } from './entities/media.entity';
import { KeyedLock } from './keyed-lock';
import { MediaAccess, MediaViewer } from './media-access';
import { MediaReferenceLookup } from './media-references';
import { MediaResponse, toMediaResponse } from './media.mapper';
import { MediaRepository } from './media.repository';
import { MEDIA_STORAGE, MediaStorage } from './storage/media-storage';
import { detectAttachmentType, detectImageType } from './upload/file-type';
import { sanitizeFilename, withImageExtension } from './upload/filename';
import { ImageSize, readImageSize } from './upload/image-size';
import { MediaUpload, mediaLimit, mediaTooLarge } from './upload/media-upload';
import { TempFile, TooLargeError, writeTempFile } from '../common/files/temp-file';

export interface MediaContent {
  stream: Readable;
  mimeType: string;
  size: number;
  filename: string;
  sha256: string;
  kind: MediaKind;
}

/**
 * Images and attachments: validation from the bytes, content-addressed storage, metadata.
 * Exported for import (storeFile inside its transaction, removeOrphanFiles on rollback) and
 * export (findById, openContent, readContent).
 */
/** Stored contents checked against the media table per statement by the orphan sweep. */
const SWEEP_BATCH = 200;

/** Ids looked up in one statement by findVisibleMany. */
const FIND_MANY_BATCH = 200;
@Injectable()
export class MediaService {
  private readonly logger = new Logger(MediaService.name);
  private readonly blobLocks = new KeyedLock();

  constructor(
    private readonly media: MediaRepository,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
    private readonly references: MediaReferenceLookup,
    private readonly access: MediaAccess,
    @InjectConfig('media') private readonly mediaConfig: MediaConfig,
    @InjectConfig('files') private readonly files: FilesConfig,
  ) {}

  /** Stores a received upload (MediaUploadReceiver); its temp file is removed either way. */
  async upload({ kind, file }: MediaUpload, user: AuthUser): Promise<MediaResponse> {
    try {
      return toMediaResponse(await this.storeTemp(file, file.clientName, kind, user.id));
    } finally {
      await rm(file.path, { force: true });
    }
  }

  /**
   * Stores a file from a path (left in place) or a stream, validated like an upload. With a
   * transaction `tx` the row joins the caller's transaction; the bytes are stored at once, so a caller
   * that rolls back calls removeOrphanFiles with the returned sha256s.
   */
  async storeFile(
    source: string | Readable,
    originalName: string,
    kind: MediaKind,
    uploaderId: string | null,
    tx?: Tx,
  ): Promise<MediaResponse> {
    const input = typeof source === 'string' ? createReadStream(source) : source;
    let temp: TempFile;
    try {
      temp = await writeTempFile(input, this.files.dataDir, mediaLimit(this.mediaConfig, kind));
    } catch (error) {
      throw error instanceof TooLargeError ? mediaTooLarge(this.mediaConfig, kind) : error;
    }
    try {
      return toMediaResponse(await this.storeTemp(temp, originalName, kind, uploaderId, tx));
    } finally {
      await rm(temp.path, { force: true });
    }
  }

  /** The items of `kind` that `viewer` may see (MediaAccess), newest first. */
  async list(
    kind: MediaKind,
    page: ListRequest,
    viewer: MediaViewer,
  ): Promise<Paged<MediaResponse>> {
    const after = cursorPosition(page.cursor);
    const rows = await this.media.list(kind, this.access.visibleSql(viewer), after, page.limit + 1);
    return toPaged(rows, page.limit, toMediaResponse, (m) => ({
      at: m.createdAt.toISOString(),
      id: m.id,
    }));
  }

  async get(kind: MediaKind, id: string, viewer: MediaViewer): Promise<MediaResponse> {
    return toMediaResponse(await this.require(kind, id, viewer));
  }

  /** Any kind, whoever asks (import's own bookkeeping); null when missing. */
  async findById(id: string): Promise<MediaResponse | null> {
    const media = await this.media.findById(id);
    return media ? toMediaResponse(media) : null;
  }

  /** Any kind, when `viewer` may see it (MediaAccess); null when missing or not visible. */
  async findVisible(id: string, viewer: MediaViewer): Promise<MediaResponse | null> {
    const media = await this.media.findById(id, { visible: this.access.visibleSql(viewer) });
    return media ? toMediaResponse(media) : null;
  }

  /** `findVisible` for many ids in one query: the visible ones by id (missing and hidden left out). */
  async findVisibleMany(ids: string[], viewer: MediaViewer): Promise<Map<string, MediaResponse>> {
    const found = new Map<string, MediaResponse>();
    const visible = this.access.visibleSql(viewer);
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += FIND_MANY_BATCH)
      for (const media of await this.media.findByIds(unique.slice(i, i + FIND_MANY_BATCH), visible))
        found.set(media.id, toMediaResponse(media));
    return found;
  }

  /** Opens the bytes of any kind of media (404 `media_not_found` when missing). */
  async openContent(id: string): Promise<MediaContent> {
    const media = await this.media.findRow(id);
    if (!media) throw new NotFoundProblem('media');
    return this.openStored(media);
  }

  /** The whole content in memory: for small items such as images inlined into a PDF. */
  async readContent(id: string): Promise<Buffer> {
    const { stream } = await this.openContent(id);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /**
   * The metadata row of `kind` with that id that `viewer` may see (MediaAccess), or 404
   * (`image_not_found` / `attachment_not_found`) alike for a missing and a hidden item.
   */
  async require(kind: MediaKind, id: string, viewer: MediaViewer): Promise<MediaEntity> {
    const media = await this.media.findById(id, {
      kind,
      visible: this.access.visibleSql(viewer),
    });
    if (!media) throw new NotFoundProblem(kind);
    return media;
  }

  async openStored(
    media: MediaEntity,
    range?: { start: number; end: number },
  ): Promise<MediaContent> {
    let stream: Readable;
    try {
      stream = await this.storage.createReadStream(media.sha256, range);
    } catch (error) {
      this.logger.error({
        msg: 'stored media content missing',
        mediaId: media.id,
        error: String(error),
      });
      throw new NotFoundProblem(media.kind, 'The stored content of this item is missing.');
    }
    return {
      stream,
      mimeType: media.mimeType,
      size: media.size,
      filename: media.filename,
      sha256: media.sha256,
      kind: media.kind,
    };
  }

  /**
   * Deletes the row, and the bytes when no other row shares them. While pages (live or binned)
   * reference it: 409 `media_in_use` naming only the pages `user` may see (`slugs`), the others
   * counted without names (`hiddenReferences`).
   */
  async remove(kind: MediaKind, id: string, user: AuthUser): Promise<void> {
    const media = await this.require(kind, id, user);
    const { slugs, hiddenReferences } = await this.references.referencesFor(media.id, user);
    if (slugs.length > 0 || hiddenReferences > 0) {
      throw new ConflictProblem(
        'media_in_use',
        hiddenReferences > 0
          ? `Pages still reference this ${kind} (${hiddenReferences} of them you cannot see); remove the references first.`
          : `Pages still reference this ${kind}; remove the references first.`,
        { slugs, hiddenReferences },
      );
    }
    await this.media.delete(media.id);
    await this.releaseBlob(media.sha256);
  }

  /** Deletes stored files that no row references (after a rolled-back import). */
  async removeOrphanFiles(sha256s: Iterable<string>): Promise<void> {
    for (const sha256 of new Set(sha256s)) await this.releaseBlob(sha256);
  }

  /**
   * Deletes stored content that no row references and that was last written before
   * `storedBefore` (MediaSweeper: what an import killed mid-way left). Content written or
   * reused since (`put` renews the time) is kept: an import in progress may hold an
   * uncommitted row for it. Each deletion checks again under the content's lock, right before
   * it; deleting content already gone is no error, so instances sweeping at once agree.
   * Answers how many were deleted.
   */
  async sweepOrphanFiles(storedBefore: Date, signal?: AbortSignal): Promise<number> {
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      const inUse = await this.media.hashesInUse(batch);
      for (const sha256 of batch) {
        if (signal?.aborted) break;
        if (!inUse.has(sha256) && (await this.releaseStaleBlob(sha256, storedBefore))) removed++;
      }
      batch = [];
    };
    for await (const entry of this.storage.list()) {
      if (signal?.aborted) break;
      if (entry.modifiedAt >= storedBefore) continue;
      batch.push(entry.sha256);
      if (batch.length >= SWEEP_BATCH) await flush();
    }
    if (batch.length > 0 && !signal?.aborted) await flush();
    return removed;
  }

  private async releaseStaleBlob(sha256: string, storedBefore: Date): Promise<boolean> {
    return this.blobLocks.run(sha256, () =>
      this.media.withHashLocked(sha256, async (inUse) => {
        if (inUse) return false;
        const stored = await this.storage.stat(sha256);
        if (!stored || stored.modifiedAt >= storedBefore) return false;
        await this.storage.delete(sha256);
        return true;
      }),
    );
  }

  /**
   * Deletes the bytes of `sha256` when no row references them. The per-process lock only keeps
   * this process's uploads and releases in line; across worker processes and instances (shared
   * S3 bucket) the database does it: the check and the delete run while inserts of a row with
   * these bytes wait (MediaRepository.withHashLocked), and an upload checks its bytes after its
   * insert (storeTemp).
   */
  private async releaseBlob(sha256: string): Promise<void> {
    await this.blobLocks.run(sha256, () => this.releaseUnlocked(sha256));
  }

  private releaseUnlocked(sha256: string): Promise<void> {
    return this.media.withHashLocked(sha256, async (inUse) => {
      if (!inUse) await this.storage.delete(sha256);
    });
  }

  private async storeTemp(
    temp: TempFile,
    originalName: string,
    kind: MediaKind,
    uploaderId: string | null,
    tx?: Tx,
  ): Promise<MediaEntity> {
    const cleanName = sanitizeFilename(originalName, kind === 'image' ? 'image' : 'file');
    const { mimeType, size } = await this.classify(temp, kind, cleanName);
    const filename = kind === 'image' ? withImageExtension(cleanName, mimeType) : cleanName;
    const store = async (): Promise<MediaEntity> => {
      await this.storage.put(temp.sha256, temp.path);
      const id = randomUUID();
      const row = Object.assign(new MediaEntity(), {
        id,
        kind,
        filename,
        mimeType,
        size: temp.size,
        sha256: temp.sha256,
        width: size?.width ?? null,
        height: size?.height ?? null,
        uploadedById: uploaderId,
        createdAt: new Date(),
      });
      try {
        await this.media.insert(row, tx);
      } catch (error) {
        // No half state: bytes no row references go again (a caller's transaction does this
        // itself through removeOrphanFiles after its rollback).
        if (!tx) await this.releaseUnlocked(temp.sha256);
        throw error;
      }
      // Another process or instance may have released these bytes between our put and insert
      // (a release after the insert sees the row and keeps them: see releaseBlob).
      if (!(await this.storage.exists(temp.sha256))) await this.storage.put(temp.sha256, temp.path);
      return (await this.media.findById(id, { tx }))!;
    };
    // Inside a caller's transaction the row stays invisible to releases until it commits, so
    // the lock could not help; taking it there could even deadlock with a release waiting for
    // the (SQLite) transaction the caller holds.
    return tx ? store() : this.blobLocks.run(temp.sha256, store);
  }

  private async classify(
    temp: TempFile,
    kind: MediaKind,
    filename: string,
  ): Promise<{ mimeType: string; size: ImageSize | null }> {
    if (temp.size === 0) throw fieldProblem('file', 'empty_file', 'The file is empty.');
    if (kind === 'attachment') {
      return {
        mimeType: detectAttachmentType(temp.head, temp.size <= temp.head.length, filename),
        size: null,
      };
    }
    const mimeType = detectImageType(temp.head);
    if (!mimeType) {
      throw new UnsupportedMediaTypeProblem(
        'unsupported_image_type',
        'Images must be PNG, JPEG, GIF or WebP (checked from the bytes, not the name).',
      );
    }
    const handle = await open(temp.path, 'r');
    try {
      const size = await readImageSize(mimeType, async (offset, length) => {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      });
      if (!size)
        throw fieldProblem(
          'file',
          'invalid_image',
          `The file starts like ${mimeType} but its header is damaged or incomplete.`,
        );
      return { mimeType, size };
    } finally {
      await handle.close();
    }
  }
}
