import { Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import {
  IMPORT_FINISHED,
  ImportFinishedEvent,
  PAGE_BINNED,
  PAGE_RESTORED,
  PAGE_UPDATED,
  PageBinnedEvent,
  PageUpdatedEvent,
} from '../common/events/domain-events';
import { NotificationsService } from './notifications.service';

/**
 * Turns domain events into inbox items. Features never call notifications; they announce
 * what happened after their commit and this listens. A failure here is logged, never thrown
 * back into the emitter (the action that caused it has already succeeded).
 */
@Injectable()
export class NotificationsListener {
  private readonly logger = new Logger(NotificationsListener.name);

  constructor(private readonly notifications: NotificationsService) {}

  /** Someone other than the owner changed the owner's page (a restore from the bin counts). */
  @OnEvent(PAGE_UPDATED, { async: true, promisify: true })
  @OnEvent(PAGE_RESTORED, { async: true, promisify: true })
  async onPageUpdated(event: PageUpdatedEvent): Promise<void> {
    if (!event.ownerId || event.ownerId === event.actorId) return;
    await this.guard(PAGE_UPDATED, async () => {
      const page = { id: event.pageId, slug: event.slug, title: event.title };
      if (
        await this.notifications.foldPageUpdate(
          event.ownerId!,
          page,
          event.actorId,
          event.revision,
          event.summary ?? null,
        )
      )
        return;
      await this.notifications.create({
        recipientId: event.ownerId!,
        kind: 'page.updated',
        page,
        actorId: event.actorId,
        data: { revision: event.revision, updates: 1, summary: event.summary ?? null },
      });
    });
  }

  /**
   * The owner's page went to the bin (not when the owner binned it), and only when the owner
   * would see the page if it were live: an owner outside the page's groups never learns its
   * name. The inbox applies the same rule again when listing (groups change).
   */
  @OnEvent(PAGE_BINNED, { async: true, promisify: true })
  async onPageBinned(event: PageBinnedEvent): Promise<void> {
    if (!event.ownerId || event.ownerId === event.actorId) return;
    await this.guard(PAGE_BINNED, async () => {
      if (!(await this.notifications.recipientWouldSee(event.ownerId!, event.pageId))) return;
      await this.notifications.create({
        recipientId: event.ownerId!,
        kind: 'page.binned',
        page: { id: event.pageId, slug: event.slug, title: event.title },
        actorId: event.actorId,
      });
    });
  }

  /** An import the user started has finished (dry runs already answered with their report). */
  @OnEvent(IMPORT_FINISHED, { async: true, promisify: true })
  async onImportFinished(event: ImportFinishedEvent): Promise<void> {
    if (event.dryRun) return;
    await this.guard(IMPORT_FINISHED, () =>
      this.notifications.create({
        recipientId: event.userId,
        kind: 'import.finished',
        actorId: event.userId,
        data: {
          format: event.format,
          counts: event.counts,
          ...(event.jobId ? { jobId: event.jobId } : {}),
        },
      }),
    );
  }

  private async guard(event: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.error({
        msg: 'notification not recorded',
        event,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
