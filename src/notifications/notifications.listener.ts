import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Tx } from '../common/database/database';
import {
  COMMENT_CREATED,
  COMMENT_UPDATED,
  CommentEvent,
  IMPORT_FINISHED,
  ImportFinishedEvent,
  PAGE_BINNED,
  PAGE_MOVED,
  PAGE_RESTORED,
  PAGE_UPDATED,
  PageBinnedEvent,
  PageMovedEvent,
  PageUpdatedEvent,
} from '../common/events/domain-events';
import { Outbox } from '../common/events/outbox';
import { NotificationsService } from './notifications.service';
import { WatchesService } from './watches/watches.service';

/**
 * Turns domain events into inbox items. Features never call notifications; they record what
 * happened in the outbox, and the notices are written by these handlers inside the same
 * transaction (`Outbox.within`): a committed change has its notice, a rolled-back one none.
 */
@Injectable()
export class NotificationsListener implements OnModuleInit {
  constructor(
    private readonly outbox: Outbox,
    private readonly notifications: NotificationsService,
    private readonly watches: WatchesService,
  ) {}

  onModuleInit(): void {
    this.outbox.within(PAGE_UPDATED, (tx, event) => this.onPageUpdated(tx, event));
    this.outbox.within(PAGE_RESTORED, (tx, event) => this.onPageUpdated(tx, event));
    this.outbox.within(PAGE_BINNED, (tx, event) => this.onPageBinned(tx, event));
    this.outbox.within(PAGE_MOVED, (tx, event) => this.onPageMoved(tx, event));
    this.outbox.within(IMPORT_FINISHED, (tx, event) => this.onImportFinished(tx, event));
    this.outbox.within(COMMENT_CREATED, (tx, event) => this.onComment(tx, event));
    this.outbox.within(COMMENT_UPDATED, (tx, event) => this.onComment(tx, event));
  }

  /**
   * A comment mentioned people (the comments module checked that each may see the page), or
   * replied in a thread: its author and earlier repliers hear of it while they may see the
   * page; a person mentioned and taking part gets the mention only, the actor nothing.
   */
  private async onComment(tx: Tx, event: CommentEvent): Promise<void> {
    const now = new Date();
    const page = { id: event.pageId, slug: event.slug, title: event.title };
    const data = { commentId: event.commentId, threadId: event.threadId };
    const told = new Set<string>([event.actorId]);
    for (const recipientId of event.mentionedIds ?? []) {
      if (told.has(recipientId)) continue;
      told.add(recipientId);
      await this.notifications.create(
        { recipientId, kind: 'comment.mentioned', page, actorId: event.actorId, data },
        now,
        tx,
      );
    }
    for (const recipientId of event.participantIds ?? []) {
      if (told.has(recipientId)) continue;
      told.add(recipientId);
      if (!(await this.notifications.recipientWouldSee(recipientId, event.pageId))) continue;
      await this.notifications.create(
        { recipientId, kind: 'comment.replied', page, actorId: event.actorId, data },
        now,
        tx,
      );
    }
  }

  /**
   * Someone changed a page (a restore from the bin counts): its owner and its watchers hear of
   * it, never the person who did it. Watchers only while they may see the page (checked now,
   * and again by the inbox on every listing).
   */
  private async onPageUpdated(tx: Tx, event: PageUpdatedEvent): Promise<void> {
    const page = { id: event.pageId, slug: event.slug, title: event.title };
    const now = new Date();
    for (const recipientId of await this.recipients(event)) {
      const data = updateData(event);
      if (await this.notifications.foldPageUpdate(recipientId, page, event.actorId, data, now, tx))
        continue;
      await this.notifications.create(
        {
          recipientId,
          kind: 'page.updated',
          page,
          actorId: event.actorId,
          data: { ...data, updates: 1 },
        },
        now,
        tx,
      );
    }
  }

  /**
   * A page went to the bin: its owner and watchers hear of it (not whoever binned it), and only
   * those who would see the page if it were live: someone outside the page's groups never
   * learns its name. The inbox applies the same rule again when listing (groups change).
   */
  private async onPageBinned(tx: Tx, event: PageBinnedEvent): Promise<void> {
    const now = new Date();
    for (const recipientId of await this.recipients(event)) {
      // Watchers were asked already (recipients); the owner is asked here.
      const owner = recipientId === event.ownerId;
      if (owner && !(await this.notifications.recipientWouldSee(recipientId, event.pageId)))
        continue;
      await this.notifications.create(
        {
          recipientId,
          kind: 'page.binned',
          page: { id: event.pageId, slug: event.slug, title: event.title },
          actorId: event.actorId,
        },
        now,
        tx,
      );
    }
  }

  /**
   * A page took a new slug: its owner and the watchers of the old address and of the new one
   * (a folder's watchers on either side) hear of it, as of an edit.
   */
  private async onPageMoved(tx: Tx, event: PageMovedEvent): Promise<void> {
    const now = new Date();
    for (const recipientId of await this.recipients(event, [event.from])) {
      await this.notifications.create(
        {
          recipientId,
          kind: 'page.moved',
          page: { id: event.pageId, slug: event.slug, title: event.title },
          actorId: event.actorId,
          data: { from: event.from, revision: event.revision },
        },
        now,
        tx,
      );
    }
  }

  /**
   * The owner and the watchers of the page (its own watch or a folder's above it; also those
   * of `alsoSlugs`, a moved page's old address), once each, without the actor. Watchers who may
   * no longer see the page are left out (the owner's notices are filtered when listed).
   */
  private async recipients(event: PageBinnedEvent, alsoSlugs: string[] = []): Promise<string[]> {
    const watchers = new Set(await this.watches.watchersOf(event.slug));
    for (const slug of alsoSlugs)
      for (const userId of await this.watches.watchersOf(slug)) watchers.add(userId);
    const result = new Set<string>();
    if (event.ownerId && event.ownerId !== event.actorId) result.add(event.ownerId);
    for (const userId of watchers) {
      if (userId === event.actorId || result.has(userId)) continue;
      if (await this.notifications.recipientWouldSee(userId, event.pageId)) result.add(userId);
    }
    return [...result];
  }

  /** An import the user started has finished (dry runs record no event). */
  private async onImportFinished(tx: Tx, event: ImportFinishedEvent): Promise<void> {
    if (event.dryRun) return;
    await this.notifications.create(
      {
        recipientId: event.userId,
        kind: 'import.finished',
        actorId: event.userId,
        data: {
          format: event.format,
          counts: event.counts,
          ...(event.jobId ? { jobId: event.jobId } : {}),
        },
      },
      new Date(),
      tx,
    );
  }
}

/** What a `page.updated` notice says about the change: its revision and change summary. */
function updateData(event: PageUpdatedEvent): { revision: number; summary: string | null } {
  return { revision: event.revision, summary: event.summary ?? null };
}
