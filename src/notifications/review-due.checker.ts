import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '../common/config/app-config';
import type { NotificationsConfig } from '../common/config/notifications-config';
import { PageBrowseService } from '../pages/public-api';
import type { ReviewDuePage } from '../pages/public-api';
import { NotificationsService } from './notifications.service';

/** How many due pages one query reads; a run continues batch by batch until all are seen. */
const REVIEW_BATCH = 5000;
const KEY_CHUNK = 500;

export function reviewDueKey(pageId: string, dueAt: Date): string {
  return `page.review_due:${pageId}:${dueAt.toISOString()}`;
}

/**
 * Tells owners when a page passed its review date, once per due date. Safe with several
 * instances running it at once: the notice's dedupe key (page + due date) is unique per
 * recipient in the database, so concurrent inserts of the same notice collapse into one.
 */
@Injectable()
export class ReviewDueChecker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReviewDueChecker.name);
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** Pages read per query (a property so tests can exercise several batches cheaply). */
  batchSize = REVIEW_BATCH;

  constructor(
    private readonly browse: PageBrowseService,
    private readonly notifications: NotificationsService,
    @InjectConfig('notifications') private readonly notificationsConfig: NotificationsConfig,
  ) {}

  onApplicationBootstrap(): void {
    const seconds = this.notificationsConfig.reviewCheckIntervalSeconds;
    if (seconds <= 0) return;
    this.timer = setInterval(() => void this.runScheduled(), seconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One pass: notices for every live, owned page whose review date is at or before `now`. */
  async check(now = new Date()): Promise<number> {
    let created = 0;
    let after: ReviewDuePage | undefined;
    for (;;) {
      const batch = await this.browse.reviewDueBatch(now, this.batchSize, after);
      created += await this.notify(batch.filter((p) => p.ownerId));
      if (batch.length < this.batchSize) return created;
      after = batch[batch.length - 1];
    }
  }

  private async notify(due: ReviewDuePage[]): Promise<number> {
    let created = 0;
    for (let i = 0; i < due.length; i += KEY_CHUNK) {
      const chunk = due.slice(i, i + KEY_CHUNK);
      const existing = await this.notifications.existingDedupeKeys(
        chunk.map((p) => reviewDueKey(p.id, p.nextReviewAt)),
      );
      for (const page of chunk) {
        const dedupeKey = reviewDueKey(page.id, page.nextReviewAt);
        if (existing.has(dedupeKey)) continue;
        await this.notifications.create({
          recipientId: page.ownerId!,
          kind: 'page.review_due',
          page: { id: page.id, slug: page.slug, title: page.title },
          data: { dueAt: page.nextReviewAt.toISOString() },
          dedupeKey,
        });
        created++;
      }
    }
    return created;
  }

  private async runScheduled(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const created = await this.check();
      if (created > 0) this.logger.log({ msg: 'review-due notices created', created });
    } catch (error) {
      this.logger.error({
        msg: 'review-due check failed',
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      this.running = false;
    }
  }
}
