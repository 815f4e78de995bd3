import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Tx } from '../common/database/database';
import {
  IMPORT_FINISHED,
  ImportFinishedEvent,
  PAGE_BINNED,
  PAGE_RESTORED,
  PAGE_UPDATED,
  PageBinnedEvent,
  PageUpdatedEvent,
} from '../common/events/domain-events';
import { Outbox } from '../common/events/outbox';
import { NotificationsService } from './notifications.service';

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
  ) {}

  onModuleInit(): void {
    this.outbox.within(PAGE_UPDATED, (tx, event) => this.onPageUpdated(tx, event));
    this.outbox.within(PAGE_RESTORED, (tx, event) => this.onPageUpdated(tx, event));
    this.outbox.within(PAGE_BINNED, (tx, event) => this.onPageBinned(tx, event));
    this.outbox.within(IMPORT_FINISHED, (tx, event) => this.onImportFinished(tx, event));
  }

  /** Someone other than the owner changed the owner's page (a restore from the bin counts). */
  private async onPageUpdated(tx: Tx, event: PageUpdatedEvent): Promise<void> {
    if (!event.ownerId || event.ownerId === event.actorId) return;
    const page = { id: event.pageId, slug: event.slug, title: event.title };
    const now = new Date();
    if (
      await this.notifications.foldPageUpdate(
        event.ownerId,
        page,
        event.actorId,
        event.revision,
        now,
        tx,
      )
    )
      return;
    await this.notifications.create(
      {
        recipientId: event.ownerId,
        kind: 'page.updated',
        page,
        actorId: event.actorId,
        data: { revision: event.revision, updates: 1 },
      },
      now,
      tx,
    );
  }

  /**
   * The owner's page went to the bin (not when the owner binned it), and only when the owner
   * would see the page if it were live: an owner outside the page's groups never learns its
   * name. The inbox applies the same rule again when listing (groups change).
   */
  private async onPageBinned(tx: Tx, event: PageBinnedEvent): Promise<void> {
    if (!event.ownerId || event.ownerId === event.actorId) return;
    if (!(await this.notifications.recipientWouldSee(event.ownerId, event.pageId))) return;
    await this.notifications.create(
      {
        recipientId: event.ownerId,
        kind: 'page.binned',
        page: { id: event.pageId, slug: event.slug, title: event.title },
        actorId: event.actorId,
      },
      new Date(),
      tx,
    );
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
