import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectConfig } from '../../common/config/app-config';
import type { MediaConfig } from '../../common/config/media-config';
import { Database } from '../../common/database/database';
import {
  attachmentTextSql,
  claimAttachmentText,
  markAttachmentText,
  sweepAttachmentTexts,
  writeAttachmentText,
} from '../../pages/public-sql';
import { MediaRepository } from '../media.repository';
import { MediaService } from '../media.service';
import { ExtractFailed, extractableType, extractText, missingExtractor } from './extract-text';

/** How often every instance looks for attachments whose text is not indexed yet. */
const INTERVAL_MS = 30_000;
/** Attachments read per look. */
const BATCH = 10;
/** Orphaned index rows removed per look. */
const SWEEP = 100;

/**
 * Makes the text of attached documents searchable (docs/search.md "Attachments"): after each
 * upload, every INTERVAL_MS and at start, it takes the attachments that have no text state
 * yet (or whose extraction was claimed by a process that died), one at a time, claims each
 * (one instance of several gets it), extracts its text in a child process bounded in time,
 * heap and size (extract-text.ts), and writes it to the search index in one transaction with
 * its state. Files of other types, too large or unreadable get a state saying so and are not
 * tried again. Errors are logged, never thrown.
 */
@Injectable()
export class AttachmentTextIndexer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AttachmentTextIndexer');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly media: MediaService,
    private readonly repository: MediaRepository,
    @InjectConfig('media') private readonly config: MediaConfig,
  ) {}

  onApplicationBootstrap(): void {
    const missing = missingExtractor();
    if (missing) {
      // Said once, clearly; attachments keep no state, so they are read once it is fixed.
      this.logger.error({
        msg: 'attachment text extraction is unavailable: attached documents are not searchable until it is fixed (pages are)',
        missing,
      });
      this.stopped = true;
      return;
    }
    this.kick();
    this.timer = setInterval(() => this.kick(), INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Starts a pass (or asks the running one to look again when it ends). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error) =>
        this.logger.error({ msg: 'attachment text pass failed', error: String(error) }),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves once no pass is running (tests, and the CLI before it exits). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async pass(): Promise<void> {
    const staleMs = this.config.textTimeoutSeconds * 1000 + 60_000;
    const skipped = new Set<string>();
    while (!this.stopped) {
      const staleBefore = new Date(Date.now() - staleMs);
      const waiting = await this.repository.attachmentsWhere(
        {
          sql: `(${attachmentTextSql.missing('m.id')} OR ${attachmentTextSql.stale('m.id')})`,
          params: [staleBefore],
        },
        BATCH + skipped.size,
      );
      const todo = waiting.filter((m) => !skipped.has(m.id));
      if (todo.length === 0) break;
      for (const item of todo) {
        if (this.stopped) break;
        const claimed = await this.db
          .transaction(({ sql }) => claimAttachmentText(sql, item.id, new Date(), staleBefore))
          .catch(() => false); // the row went meanwhile (its foreign key refuses the claim)
        if (!claimed) {
          skipped.add(item.id);
          continue;
        }
        await this.index(item);
      }
    }
    await this.db.transaction(({ sql }) => sweepAttachmentTexts(sql, SWEEP));
  }

  private async index(item: { id: string; filename: string; mimeType: string; size: number }) {
    const mark = (status: 'failed' | 'unsupported', detail: string) =>
      this.db.transaction(({ sql }) =>
        markAttachmentText(sql, item.id, status, detail, new Date()),
      );
    if (!extractableType(item.mimeType)) return mark('unsupported', item.mimeType);
    if (item.size > this.config.textMaxBytes)
      return mark('failed', `larger than ATTACHMENT_TEXT_MAX_BYTES (${this.config.textMaxBytes})`);
    try {
      const { stream } = await this.media.openContent(item.id);
      const { text } = await extractText(stream, item.mimeType, {
        timeoutMs: this.config.textTimeoutSeconds * 1000,
        maxChars: this.config.textMaxChars,
      });
      await this.db.transaction(({ sql }) =>
        writeAttachmentText(sql, { mediaId: item.id, filename: item.filename, text }, new Date()),
      );
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      if (!(error instanceof ExtractFailed))
        this.logger.warn({ msg: 'attachment text not extracted', mediaId: item.id, error: detail });
      await mark('failed', detail).catch(() => undefined);
    }
  }
}
