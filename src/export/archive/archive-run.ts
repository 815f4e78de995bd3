import { Logger } from '@nestjs/common';
import { makeTempDir } from '../../common/files/temp-folder';
import type { Archiver } from 'archiver';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ArchiveRequest } from './archive-export.service';
import type { AuthUser } from '../../common/auth/auth-user';
import { decodeCursor } from '../../common/http/pagination';
import type { ArchiveComment } from '../../comments/public-api';
import { MediaService } from '../../media/public-api';
import type { MediaResponse } from '../../media/public-api';
import { archiveMetadata } from '../../pages/public-api';
import type { PageArchiveRecord, PageTemplateResponse } from '../../pages/public-api';
import {
  findMediaReferences,
  relativeArchivePath,
  rewriteMediaReferences,
} from '../markdown/media-references';
import { pageMarkdown } from '../markdown/page-markdown';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  ArchiveMediaEntry,
  ArchivePageEntry,
  MANIFEST_PATH,
} from './archive-manifest';
import { markdownLinkTarget, mediaArchivePath, pageArchivePath } from './archive-paths';

/** Entries handed to archiver but not yet written: bounds memory however large the wiki. */
const MAX_PENDING_ENTRIES = 8;

/** What one archive reads: the caller's pages in slug order, site variables, media, a temp root. */
export interface ArchiveSources {
  pageBatch(
    afterSlug: string | null,
  ): Promise<{ page: PageArchiveRecord; owner: string | null; summary: string | null }[]>;
  siteVariables(): Promise<Record<string, string>>;
  /** Redirects (old slug → slug) to the pages among `slugs`, by old slug. */
  redirects(slugs: string[]): Promise<{ from: string; to: string }[]>;
  /** The comments of the pages, by page id. */
  comments(pageIds: string[]): Promise<Map<string, ArchiveComment[]>>;
  /** The page templates (all of them, whichever pages the archive holds). */
  templates(): Promise<PageTemplateResponse[]>;
  media: MediaService;
  dataDir: string;
}

/** One archive being written: the producer loop, its backpressure and its temporary manifest. */
export class ArchiveRun {
  private aborted = false;
  private pending = 0;
  private waiters: (() => void)[] = [];
  private tempDir: string | undefined;
  private readonly mediaMeta = new Map<string, MediaResponse | null>();
  private readonly referenced = new Set<string>();
  private readonly slugs: string[] = [];

  constructor(
    private readonly zip: Archiver,
    private readonly sources: ArchiveSources,
    private readonly request: ArchiveRequest,
    private readonly user: AuthUser,
    private readonly now: Date,
    private readonly logger: Logger,
  ) {
    zip.on('entry', () => {
      this.pending -= 1;
      this.waiters.shift()?.();
    });
    zip.on('warning', (error) =>
      this.logger.warn({ msg: 'archive warning', error: String(error) }),
    );
    for (const event of ['end', 'close', 'error']) zip.once(event, () => void this.cleanup());
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    for (const wake of this.waiters.splice(0)) wake();
    this.zip.abort();
    void this.cleanup();
  }

  async produce(): Promise<void> {
    let pagesOut: WriteStream | undefined;
    let mediaOut: WriteStream | undefined;
    try {
      this.tempDir = await makeTempDir(this.sources.dataDir, 'kb-archive-');
      pagesOut = createWriteStream(join(this.tempDir, 'pages.json'));
      mediaOut = createWriteStream(join(this.tempDir, 'media.json'));
      const pageCount = await this.writePages(pagesOut);
      const mediaCount = await this.writeMedia(mediaOut);
      await Promise.all([closeStream(pagesOut), closeStream(mediaOut)]);
      if (this.aborted) return;
      await this.append(
        this.manifestStream(
          pageCount,
          mediaCount,
          await this.sources.siteVariables(),
          await this.sources.redirects(this.slugs),
          await this.sources.templates(),
        ),
        MANIFEST_PATH,
        this.now,
      );
      if (this.aborted) return;
      await this.zip.finalize();
      this.logger.log({
        msg: 'archive exported',
        pages: pageCount,
        media: mediaCount,
        by: this.user.username,
      });
    } catch (error) {
      if (!this.aborted) {
        this.logger.error({
          msg: 'archive export failed',
          error: error instanceof Error ? error.stack : String(error),
        });
        // The 200 and part of the ZIP are already out: end it visibly broken rather than valid-looking.
        this.zip.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    } finally {
      pagesOut?.destroy();
      mediaOut?.destroy();
      if (this.aborted) await this.cleanup();
    }
  }

  private async cleanup(): Promise<void> {
    const dir = this.tempDir;
    this.tempDir = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  private async writePages(out: WriteStream): Promise<number> {
    let count = 0;
    let after: string | null = null;
    for (;;) {
      if (this.aborted) return count;
      const batch = await this.sources.pageBatch(after);
      if (batch.length === 0) return count;
      const comments = await this.sources.comments(batch.map((b) => b.page.id));
      for (const { page, owner, summary } of batch) {
        if (this.aborted) return count;
        const entry = await this.writePage(page, owner, summary, comments.get(page.id) ?? []);
        await writeJson(out, entry, count === 0);
        this.slugs.push(page.slug);
        count += 1;
      }
      after = batch[batch.length - 1].page.slug;
    }
  }

  private async writePage(
    page: PageArchiveRecord,
    owner: string | null,
    summary: string | null,
    comments: ArchiveComment[],
  ): Promise<ArchivePageEntry> {
    const path = pageArchivePath(page.slug);
    const refs = findMediaReferences(page.content);
    const ids: string[] = [];
    for (const ref of refs) {
      const meta = await this.lookupMedia(ref.id);
      if (meta) {
        ids.push(meta.id);
        this.referenced.add(meta.id);
      }
    }
    const content = rewriteMediaReferences(page.content, (ref) => {
      const meta = this.mediaMeta.get(ref.id);
      return meta
        ? markdownLinkTarget(relativeArchivePath(path, mediaArchivePath(meta.id, meta.filename)))
        : undefined;
    });
    const bytes = Buffer.from(pageMarkdown(page.title, content), 'utf8');
    await this.append(bytes, path, page.updatedAt);
    return {
      path,
      slug: page.slug,
      title: page.title,
      // Every metadata field (PAGE_COLUMNS), the owner by username and by id.
      ...archiveMetadata(page, owner),
      revision: page.revision,
      summary,
      createdAt: page.createdAt.toISOString(),
      updatedAt: page.updatedAt.toISOString(),
      media: ids,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      comments,
    };
  }

  /** Media referenced by the pages; for a whole-wiki archive also every other stored item. */
  private async writeMedia(out: WriteStream): Promise<number> {
    let count = 0;
    const write = async (meta: MediaResponse): Promise<void> => {
      if (this.aborted) return;
      const entry = await this.writeMediaItem(meta);
      if (!entry) return;
      await writeJson(out, entry, count === 0);
      count += 1;
    };
    for (const id of [...this.referenced].sort()) await write(this.mediaMeta.get(id)!);
    if (this.request.slugs === undefined) {
      for (const kind of ['image', 'attachment'] as const) {
        let cursor: string | null = null;
        do {
          if (this.aborted) return count;
          const page = await this.sources.media.list(
            kind,
            { limit: 100, cursor: cursor ? decodeCursor(cursor) : null },
            this.user,
          );
          for (const meta of page.items) if (!this.referenced.has(meta.id)) await write(meta);
          cursor = page.nextCursor;
        } while (cursor);
      }
    }
    return count;
  }

  private async writeMediaItem(meta: MediaResponse): Promise<ArchiveMediaEntry | undefined> {
    let stream: Readable;
    try {
      stream = (await this.sources.media.openContent(meta.id)).stream;
    } catch {
      this.logger.warn({
        msg: 'stored media content missing; left out of the archive',
        mediaId: meta.id,
      });
      return undefined;
    }
    const path = mediaArchivePath(meta.id, meta.filename);
    await this.append(stream, path, new Date(meta.createdAt));
    return {
      id: meta.id,
      kind: meta.kind,
      path,
      filename: meta.filename,
      mimeType: meta.mimeType,
      size: meta.size,
      sha256: meta.sha256,
      ...(meta.kind === 'image' ? { width: meta.width, height: meta.height } : {}),
      createdAt: meta.createdAt,
    };
  }

  private async lookupMedia(id: string): Promise<MediaResponse | null> {
    if (!this.mediaMeta.has(id))
      this.mediaMeta.set(id, await this.sources.media.findVisible(id, this.user));
    return this.mediaMeta.get(id) ?? null;
  }

  /** Hands an entry to archiver once fewer than MAX_PENDING_ENTRIES are waiting to be written. */
  private async append(source: Buffer | Readable, name: string, date: Date): Promise<void> {
    while (this.pending >= MAX_PENDING_ENTRIES && !this.aborted) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    if (this.aborted) {
      if (source instanceof Readable) source.destroy();
      return;
    }
    this.pending += 1;
    this.zip.append(source, { name, date });
  }

  private manifestStream(
    pages: number,
    media: number,
    siteVariables: Record<string, string>,
    redirects: { from: string; to: string }[],
    templates: PageTemplateResponse[],
  ): Readable {
    const dir = this.tempDir!;
    const head = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      exportedAt: this.now.toISOString(),
      exportedBy: this.user.username,
      selection: this.request.slugs ? 'slugs' : 'all',
      siteVariables,
      redirects,
      templates,
      counts: { pages, media },
    };
    async function* parts(): AsyncGenerator<Buffer | string> {
      yield `${JSON.stringify(head, null, 2).replace(/\n}$/, '')},\n  "pages": [\n`;
      yield* createReadStream(join(dir, 'pages.json'));
      yield '\n  ],\n  "media": [\n';
      yield* createReadStream(join(dir, 'media.json'));
      yield '\n  ]\n}\n';
    }
    return Readable.from(parts());
  }
}

/** Appends one manifest array element (indented, comma-separated) and respects backpressure. */
async function writeJson(out: WriteStream, value: unknown, first: boolean): Promise<void> {
  const text = (first ? '' : ',\n') + '    ' + JSON.stringify(value);
  if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}

function closeStream(out: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    out.once('error', reject);
    out.end(() => resolve());
  });
}
