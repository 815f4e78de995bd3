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
import { WatchesService } from './watches/watches.service';

/**
 * Turns domain events into inbox items. Features never call notifications; they announce
 * what happened after their commit and this listens. A failure here is logged, never thrown
 * back into the emitter (the action that caused it has already succeeded).
 */
@Injectable()
export class NotificationsListener {
  private readonly logger = new Logger(NotificationsListener.name);

  constructor(
    private readonly notifications: NotificationsService,
    private readonly watches: WatchesService,
  ) {}

  /**
   * Someone changed a page (a restore from the bin counts): its owner and its watchers hear of
   * it, never the person who did it. Watchers only while they may see the page (checked now,
   * and again by the inbox on every listing).
   */
  @OnEvent(PAGE_UPDATED, { async: true, promisify: true })
  @OnEvent(PAGE_RESTORED, { async: true, promisify: true })
  async onPageUpdated(event: PageUpdatedEvent): Promise<void> {
    await this.guard(PAGE_UPDATED, async () => {
      const page = { id: event.pageId, slug: event.slug, title: event.title };
      for (const recipientId of await this.recipients(event)) {
        const data = updateData(event);
        if (await this.notifications.foldPageUpdate(recipientId, page, event.actorId, data))
          continue;
        await this.notifications.create({
          recipientId,
          kind: 'page.updated',
          page,
          actorId: event.actorId,
          data: { ...data, updates: 1 },
        });
      }
    });
  }

  /**
   * A page went to the bin: its owner and watchers hear of it (not whoever binned it), and only
   * those who would see the page if it were live: someone outside the page's groups never
   * learns its name. The inbox applies the same rule again when listing (groups change).
   */
  @OnEvent(PAGE_BINNED, { async: true, promisify: true })
  async onPageBinned(event: PageBinnedEvent): Promise<void> {
    await this.guard(PAGE_BINNED, async () => {
      for (const recipientId of await this.recipients(event)) {
        // Watchers were asked already (recipients); the owner is asked here.
        const owner = recipientId === event.ownerId;
        if (owner && !(await this.notifications.recipientWouldSee(recipientId, event.pageId)))
          continue;
        await this.notifications.create({
          recipientId,
          kind: 'page.binned',
          page: { id: event.pageId, slug: event.slug, title: event.title },
          actorId: event.actorId,
        });
      }
    });
  }

  // A page move (issue 26, item 1) notifies the same recipients: the watchers of the old slug
  // and of the new one, through `recipients` with the event's slug.

  /**
   * The owner and the watchers of the page (its own watch or a folder's above it), once each,
   * without the actor. Watchers who may no longer see the page are left out (the owner's
   * notices are filtered when listed, as before).
   */
  private async recipients(event: PageBinnedEvent): Promise<string[]> {
    const watchers = await this.watches.watchersOf(event.slug);
    const result = new Set<string>();
    if (event.ownerId && event.ownerId !== event.actorId) result.add(event.ownerId);
    for (const userId of watchers) {
      if (userId === event.actorId || result.has(userId)) continue;
      if (await this.notifications.recipientWouldSee(userId, event.pageId)) result.add(userId);
    }
    return [...result];
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

/**
 * What a `page.updated` notice says about the change. The one place to add the revision's
 * change summary (issue 26, item 9) when PageUpdatedEvent carries it: `summary: event.summary`.
 */
function updateData(event: PageUpdatedEvent): { revision: number } {
  return { revision: event.revision };
}
