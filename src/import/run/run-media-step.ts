import { Logger } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/auth-user';
import type { Tx } from '../../common/database/database';
import { Problem } from '../../common/problems/problem';
import type { MediaService } from '../../media/public-api';
import type { ConversionResult, ImportReport, SourceEntry } from '../import.types';
import type { MediaKindOf } from '../reference-resolver';
import type { ImportRun, RunPlan } from './import-run';
import {
  isStorableImage,
  MediaBatchWriter,
  mediaKey,
  mediaName,
  pickReusable,
  ReusableMedia,
  reusableMedia,
  StoredMedia,
} from './run-media';

const STORED_AS_ATTACHMENT =
  'An image kb does not serve as an image (only PNG, JPEG, GIF and WebP): stored as an attachment, served as a download.';

/**
 * The media of one import run: files the pages reference, reused when the replaced pages
 * already hold the same bytes, else stored (inside the run's transaction). Report entries keep
 * the archive order.
 */
export class RunMedia {
  private readonly logger = new Logger(RunMedia.name);
  private writer?: MediaBatchWriter;

  constructor(
    private readonly run: ImportRun,
    private readonly plan: RunPlan,
    private readonly media: MediaService,
  ) {}

  /**
   * Files used as images in a type kb does not store as images (SVG, BMP, TIFF…) become
   * attachments, always served as a download, and are referenced by that URL.
   */
  static demoteUnservableImages(
    conversion: ConversionResult,
    assets: Map<string, MediaKindOf>,
  ): Set<string> {
    const asAttachment = new Set<string>();
    for (const [path, kind] of assets) {
      if (kind === 'image' && !isStorableImage(conversion.assets.get(path)!.data)) {
        assets.set(path, 'attachment');
        asAttachment.add(path);
      }
    }
    return asAttachment;
  }

  /** The dry run: report every file with the URL of the media it would reuse, if any. */
  async planWithoutWriting(): Promise<Map<string, string>> {
    const reusable = await this.reusable();
    const urls = new Map<string, string>();
    for (const [path, kind] of this.plan.assets) {
      const reuse = this.reuseFor(reusable, path, kind);
      if (reuse) urls.set(path, reuse.url);
      this.record(path, kind, { path, id: reuse?.id ?? null, url: reuse?.url ?? null });
    }
    return urls;
  }

  /** Stores what cannot be reused, in `tx`; refused files are reported, not stored. */
  async store(tx: Tx, actor: AuthUser): Promise<Map<string, StoredMedia>> {
    const reusable = await this.reusable();
    const outcomes = new Map<string, StoredMedia | Problem>();
    const pending: [string, MediaKindOf, SourceEntry][] = [];
    // Files of the same bytes under the same name (one logo attached to many pages) are
    // stored once: a re-import then finds one medium for all of them, as this import wrote.
    const sameFile = new Map<string, string>();
    const firstOf = new Map<string, string>();
    for (const [path, kind] of this.plan.assets) {
      const reuse = this.reuseFor(reusable, path, kind);
      if (reuse) {
        outcomes.set(path, reuse);
        continue;
      }
      const identity = `${mediaKey(kind, this.entry(path).data)}:${mediaName(path, kind)}`;
      const first = firstOf.get(identity);
      if (first !== undefined) sameFile.set(path, first);
      else {
        firstOf.set(identity, path);
        pending.push([path, kind, this.entry(path)]);
      }
    }
    this.writer = new MediaBatchWriter(this.media, tx, actor);
    this.run.progress('storing media', 0, pending.length);
    const written = await this.writer.storeAll(pending, (done) =>
      this.run.progress('storing media', done, pending.length),
    );
    for (const [path, outcome] of written) outcomes.set(path, outcome);
    for (const [path, first] of sameFile) outcomes.set(path, outcomes.get(first)!);
    const stored = new Map<string, StoredMedia>();
    for (const [path, kind] of this.plan.assets) {
      const outcome = outcomes.get(path)!;
      if (outcome instanceof Problem) {
        this.report.refusedFiles.push({ path, code: outcome.code, reason: outcome.detail });
        continue;
      }
      stored.set(path, outcome);
      this.record(path, kind, { path, id: outcome.id, url: outcome.url });
    }
    return stored;
  }

  /** After a rollback: the files stored for it go (the rows never were). */
  async removeWritten(): Promise<void> {
    if (!this.writer) return;
    await this.media.removeOrphanFiles(this.writer.written).catch((cleanup: unknown) => {
      this.logger.error({ msg: 'import rollback left media files behind', error: String(cleanup) });
    });
  }

  private get report(): ImportReport {
    return this.run.report;
  }

  private entry(path: string): SourceEntry {
    return this.plan.conversion.assets.get(path)!;
  }

  private reusable(): Promise<Map<string, ReusableMedia[]>> {
    return reusableMedia(this.media, [...this.plan.existingBySlug.values()]);
  }

  private reuseFor(
    reusable: Map<string, ReusableMedia[]>,
    path: string,
    kind: MediaKindOf,
  ): StoredMedia | undefined {
    const found = pickReusable(
      reusable.get(mediaKey(kind, this.entry(path).data)),
      mediaName(path, kind),
    );
    return found && { id: found.id, url: found.url, sha256: found.sha256 };
  }

  private record(
    path: string,
    kind: MediaKindOf,
    item: { path: string; id: string | null; url: string | null },
  ): void {
    (kind === 'image' ? this.report.images : this.report.attachments).push(item);
    if (this.plan.asAttachment.has(path))
      this.report.storedAsAttachment.push({ ...item, reason: STORED_AS_ATTACHMENT });
  }
}
