import { Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { randomUUID } from 'node:crypto';
import { Database } from '../common/database/database';
import {
  IMPORT_FINISHED,
  ImportFinishedEvent,
  PAGE_BINNED,
  PAGE_CREATED,
  PAGE_PURGED,
  PAGE_RESTORED,
  PAGE_UPDATED,
  PageBinnedEvent,
  PageCreatedEvent,
  PagePurgedEvent,
  PageUpdatedEvent,
} from '../common/events/domain-events';
import { EventLogRepository } from './event-log.repository';
import type { EventType } from './event-types';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhooksRepository } from './webhooks.repository';

interface Recordable {
  type: EventType;
  pageId: string | null;
  actorId: string | null;
  data: Record<string, unknown>;
}

type PageEvent = PageCreatedEvent | PageUpdatedEvent | PageBinnedEvent | PagePurgedEvent;

function pageData(event: PageEvent): Record<string, unknown> {
  const data: Record<string, unknown> = { id: event.pageId, slug: event.slug, title: event.title };
  if ('revision' in event) data.revision = event.revision;
  if ('summary' in event) data.summary = event.summary ?? null;
  data.actorId = event.actorId;
  return data;
}

/**
 * Records domain events in the event log and queues one delivery per subscribed webhook, in
 * one transaction: the feed and the outbox always agree. Deliveries of a page's events share
 * an order key, so they go out in order.
 */
@Injectable()
export class EventRecorder {
  private readonly logger = new Logger(EventRecorder.name);

  constructor(
    private readonly db: Database,
    private readonly log: EventLogRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  @OnEvent(PAGE_CREATED, { async: true, promisify: true })
  onCreated(event: PageCreatedEvent) {
    return this.page('page.created', event);
  }

  @OnEvent(PAGE_UPDATED, { async: true, promisify: true })
  onUpdated(event: PageUpdatedEvent) {
    return this.page('page.updated', event);
  }

  @OnEvent(PAGE_BINNED, { async: true, promisify: true })
  onBinned(event: PageBinnedEvent) {
    return this.page('page.binned', event);
  }

  @OnEvent(PAGE_RESTORED, { async: true, promisify: true })
  onRestored(event: PageUpdatedEvent) {
    return this.page('page.restored', event);
  }

  @OnEvent(PAGE_PURGED, { async: true, promisify: true })
  onPurged(event: PagePurgedEvent) {
    return this.page('page.purged', event);
  }

  /** Dry runs changed nothing: no event. */
  @OnEvent(IMPORT_FINISHED, { async: true, promisify: true })
  async onImportFinished(event: ImportFinishedEvent): Promise<void> {
    if (event.dryRun) return;
    await this.record({
      type: 'import.finished',
      pageId: null,
      actorId: event.userId,
      data: { format: event.format, counts: event.counts, actorId: event.userId },
    });
  }

  private page(type: EventType, event: PageEvent): Promise<void> {
    return this.record({
      type,
      pageId: event.pageId,
      actorId: event.actorId,
      data: pageData(event),
    });
  }

  private async record(event: Recordable): Promise<void> {
    try {
      const now = new Date();
      await this.db.transaction(async (tx) => {
        const recorded = await this.log.append({ ...event, id: randomUUID(), occurredAt: now }, tx);
        const subscribers = await this.webhooks.listActiveFor(event.type, tx);
        const orderKey = event.pageId ?? `event:${recorded.id}`;
        await this.deliveries.enqueue(
          subscribers.map((w) => w.id),
          recorded.seq,
          orderKey,
          now,
          tx,
        );
      });
      this.dispatcher.kick();
    } catch (error) {
      this.logger.error({
        msg: 'event not recorded',
        type: event.type,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
