import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Tx } from '../common/database/database';
import { Outbox, RecordedEvent } from '../common/events/outbox';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * The webhooks' part of the outbox: each recorded event queues one delivery per active
 * webhook subscribed to its type, in the event's own transaction, so the feed and the
 * deliveries always agree with the change. The dispatcher is woken once it committed.
 * Deliveries of a page's events share an order key, so they go out in order.
 */
@Injectable()
export class WebhookFanOut implements OnModuleInit {
  constructor(
    private readonly outbox: Outbox,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  onModuleInit(): void {
    this.outbox.join((tx, event) => this.fanOut(tx, event));
  }

  private async fanOut(tx: Tx, event: RecordedEvent): Promise<void> {
    const queued = await this.deliveries.enqueueFor(
      {
        id: event.id,
        type: event.type,
        orderKey: event.pageId ?? `event:${event.id}`,
        at: event.occurredAt,
      },
      tx,
    );
    if (queued > 0) tx.afterCommit(() => this.dispatcher.kick());
  }
}
