import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { randomUUID } from 'node:crypto';
import type { Tx } from '../database/database';
import type { DomainEventPayloads, DomainEventType } from './domain-events';
import { FEED_ENTRIES, FeedEntry } from './event-feed';

/** An event as the outbox wrote it (its `seq` is the database's, read by whoever needs it). */
export interface RecordedEvent extends FeedEntry {
  id: string;
  type: DomainEventType;
  occurredAt: Date;
}

/**
 * Writes rows of its own for each recorded event, in the event's transaction (the webhooks
 * module: one delivery per subscribed webhook). It may register `tx.afterCommit` work.
 */
export type OutboxParticipant = (tx: Tx, event: RecordedEvent) => Promise<void>;

/** Writes rows of its own for one type of event, from its payload, in the event's transaction. */
export type OutboxHandler<K extends DomainEventType> = (
  tx: Tx,
  payload: DomainEventPayloads[K],
) => Promise<void>;

/**
 * The transactional outbox. A change records what happened with ONE call inside its own
 * transaction — `await outbox.record(tx, 'page.updated', payload)` — which writes the event
 * row (the feed, GET /api/events) and what the participants fan it out to (webhook
 * deliveries, inbox notices) on the transaction's connection: a committed change always has
 * its event, a rolled-back one never does. What cannot roll back runs after the commit:
 * the webhook dispatcher sends the deliveries (leased, retried), and in-process listeners
 * (`@OnEvent(type)`) receive the payload once the transaction committed.
 *
 * The one door that writes `events` (webhooks' EventLogRepository reads it).
 */
@Injectable()
export class Outbox {
  private readonly participants: OutboxParticipant[] = [];
  private readonly handlers = new Map<DomainEventType, OutboxHandler<DomainEventType>[]>();

  constructor(private readonly emitter: EventEmitter2) {}

  /** Called once at start by a module that keeps rows per event (webhook deliveries). */
  join(participant: OutboxParticipant): void {
    this.participants.push(participant);
  }

  /**
   * Called once at start by a module that keeps rows for events of one type (notifications):
   * `handler` runs inside the transaction that records each one, so its rows commit with the
   * change. A handler that throws rolls the change back: it writes rows, it does not call out.
   */
  within<K extends DomainEventType>(type: K, handler: OutboxHandler<K>): void {
    const list = this.handlers.get(type) ?? [];
    list.push(handler as OutboxHandler<DomainEventType>);
    this.handlers.set(type, list);
  }

  /**
   * Records `type` in `tx` (which must be a transaction: `Database.transaction`'s, or one the
   * caller joined). Everything it writes commits or rolls back with the caller's change.
   */
  async record<K extends DomainEventType>(
    tx: Tx,
    type: K,
    payload: DomainEventPayloads[K],
  ): Promise<void> {
    const event: RecordedEvent = {
      id: randomUUID(),
      type,
      occurredAt: new Date(),
      ...FEED_ENTRIES[type](payload),
    };
    await tx.sql.run(
      'INSERT INTO events (id, type, page_id, actor_id, data, occurred_at) VALUES (?, ?, ?, ?, ?, ?)',
      [
        event.id,
        event.type,
        event.pageId,
        event.actorId,
        JSON.stringify(event.data),
        event.occurredAt,
      ],
    );
    for (const participant of this.participants) await participant(tx, event);
    for (const handler of this.handlers.get(type) ?? []) await handler(tx, payload);
    // Listeners are told after the commit, in the order the events were recorded.
    tx.afterCommit(() => void this.emitter.emit(type, payload));
  }
}
