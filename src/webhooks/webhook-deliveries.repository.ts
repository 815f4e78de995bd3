import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { column, rowDecoder, selectList } from '../common/database/column-defs';
import { Database, Tx } from '../common/database/database';
import { insertRows } from '../common/database/insert-rows';
import type { EventType } from './event-types';
import {
  ATTEMPT_COLUMNS,
  AttemptRecord,
  DELIVERY_COLUMNS,
  DeliveryRecord,
  DeliveryState,
  EVENT_COLUMNS,
} from './webhook-columns';

export type { AttemptRecord, DeliveryRecord, DeliveryState };

/** A delivery with its event, as the dispatcher sends it and the list shows it. */
export interface DeliveryWithEvent extends DeliveryRecord {
  /** `data`: the event's JSON as stored, sent as it is. */
  event: { id: string; type: EventType; data: string; occurredAt: Date };
}

const DELIVERY_KEYS = (Object.keys(DELIVERY_COLUMNS) as (keyof DeliveryRecord)[]).filter(
  (key) => key !== ('leaseUntil' as string),
);
/** The event beside it, its columns selected as `event_<column>`; `data` kept as text. */
const EVENT_PART = {
  id: EVENT_COLUMNS.id,
  type: EVENT_COLUMNS.type,
  data: column.text('data'),
  occurredAt: EVENT_COLUMNS.occurredAt,
};
const EVENT_KEYS = Object.keys(EVENT_PART) as (keyof typeof EVENT_PART)[];
const COLUMNS =
  `${selectList(DELIVERY_COLUMNS, DELIVERY_KEYS, 'd')}, ` +
  EVENT_KEYS.map((key) => `e.${EVENT_PART[key].name} AS event_${EVENT_PART[key].name}`).join(', ');
const decodeDelivery = rowDecoder(DELIVERY_COLUMNS, DELIVERY_KEYS);
const decodeEvent = rowDecoder(
  Object.fromEntries(
    EVENT_KEYS.map((key) => [key, { ...EVENT_PART[key], name: `event_${EVENT_PART[key].name}` }]),
  ) as typeof EVENT_PART,
  EVENT_KEYS,
);

function decode(row: Record<string, unknown>): DeliveryWithEvent {
  return { ...decodeDelivery(row), event: decodeEvent(row) };
}

const ATTEMPT_KEYS = (Object.keys(ATTEMPT_COLUMNS) as (keyof typeof ATTEMPT_COLUMNS)[]).filter(
  (key) => key !== 'id',
) as (keyof AttemptRecord)[];
const decodeAttempt = rowDecoder(ATTEMPT_COLUMNS, ATTEMPT_KEYS);

const FROM = 'FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq';

/**
 * A new random (version 4) UUID per row, in SQL: a delivery's id is its `webhook-id`. MariaDB's
 * UUID() is a version 1 UUID, unique per call as well.
 */
const NEW_ID = {
  sqlite:
    "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) " +
    "|| '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) " +
    "|| '-' || hex(randomblob(6)))",
  mysql: 'UUID()',
};

/** The one door to `webhook_deliveries` (the durable outbox) and `webhook_attempts`. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Queues the event (just written in `tx`) for every active webhook subscribed to its type, in
   * one statement (no read of the subscriptions first): one delivery each, due now. Answers how
   * many were queued.
   */
  async enqueueFor(
    event: { id: string; type: EventType; orderKey: string; at: Date },
    tx: Tx,
  ): Promise<number> {
    const sql = this.db.sql(tx);
    const { changes } = await sql.run(
      'INSERT INTO webhook_deliveries (id, webhook_id, event_seq, order_key, state, tries, next_attempt_at, created_at) ' +
        `SELECT ${sql.dialect.choose(NEW_ID)}, w.id, e.seq, ?, 'pending', 0, ?, ? ` +
        'FROM events e JOIN webhooks w ON w.active = ? AND INSTR(w.events, ?) > 0 WHERE e.id = ?',
      [event.orderKey, event.at, event.at, true, JSON.stringify(event.type), event.id],
    );
    return changes;
  }

  /**
   * Pending deliveries due now, of active webhooks, not leased by another instance, and each
   * the oldest pending one of its webhook and order key (a page's events go out in order).
   */
  async listDue(now: Date, limit: number): Promise<DeliveryWithEvent[]> {
    const rows = await this.db
      .sql()
      .all(
        `SELECT ${COLUMNS} ${FROM} JOIN webhooks w ON w.id = d.webhook_id ` +
          "WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND w.active = ? " +
          'AND (d.lease_until IS NULL OR d.lease_until < ?) ' +
          'AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.webhook_id = d.webhook_id ' +
          "AND o.order_key = d.order_key AND o.state = 'pending' AND o.event_seq < d.event_seq) " +
          `ORDER BY d.event_seq LIMIT ${Number(limit)}`,
        [now, true, now],
      );
    return rows.map(decode);
  }

  /** Takes a delivery for one attempt; false when another instance has it. */
  async lease(id: string, now: Date, until: Date): Promise<boolean> {
    const { changes } = await this.db.write(({ sql }) =>
      sql.run(
        "UPDATE webhook_deliveries SET lease_until = ? WHERE id = ? AND state = 'pending' " +
          'AND (lease_until IS NULL OR lease_until < ?)',
        [until, id, now],
      ),
    );
    return changes > 0;
  }

  /** Records an attempt and the delivery's new state, in one transaction. */
  async recordAttempt(
    attempt: AttemptRecord,
    next: { state: DeliveryState; tries: number; nextAttemptAt: Date },
  ): Promise<void> {
    await this.db.transaction(async ({ sql }) => {
      await insertRows(sql, 'webhook_attempts', ATTEMPT_COLUMNS, [
        { id: randomUUID(), ...attempt },
      ]);
      await sql.run(
        'UPDATE webhook_deliveries SET state = ?, tries = ?, next_attempt_at = ?, lease_until = NULL, ' +
          'last_status = ?, last_error = ?, last_attempt_at = ?, delivered_at = ? WHERE id = ?',
        [
          next.state,
          next.tries,
          next.nextAttemptAt,
          attempt.statusCode,
          attempt.error,
          attempt.attemptedAt,
          next.state === 'delivered' ? attempt.attemptedAt : null,
          attempt.deliveryId,
        ],
      );
    });
  }

  /** A webhook's deliveries, newest first, after the delivery with event `beforeSeq`. */
  async list(webhookId: string, beforeSeq: number | null, limit: number) {
    const rows = await this.db
      .sql()
      .all(
        `SELECT ${COLUMNS} ${FROM} WHERE d.webhook_id = ?${beforeSeq === null ? '' : ' AND d.event_seq < ?'} ` +
          `ORDER BY d.event_seq DESC LIMIT ${Number(limit)}`,
        beforeSeq === null ? [webhookId] : [webhookId, beforeSeq],
      );
    return rows.map(decode);
  }

  async find(webhookId: string, id: string): Promise<DeliveryWithEvent | null> {
    const [row] = await this.db
      .sql()
      .all(`SELECT ${COLUMNS} ${FROM} WHERE d.webhook_id = ? AND d.id = ?`, [webhookId, id]);
    return row ? decode(row) : null;
  }

  /** The attempts of these deliveries, oldest first. */
  async attemptsOf(deliveryIds: string[]): Promise<AttemptRecord[]> {
    if (deliveryIds.length === 0) return [];
    const rows = await this.db
      .sql()
      .all(
        `SELECT ${selectList(ATTEMPT_COLUMNS, ATTEMPT_KEYS, 'a')} FROM webhook_attempts a ` +
          `WHERE a.delivery_id IN (${deliveryIds.map(() => '?').join(', ')}) ORDER BY a.attempted_at, a.id`,
        deliveryIds,
      );
    return rows.map(decodeAttempt);
  }

  /** Sends a delivery again from now with a fresh round of tries (the same webhook-id). */
  async requeue(id: string, now: Date): Promise<void> {
    await this.db.write(({ sql }) =>
      sql.run(
        "UPDATE webhook_deliveries SET state = 'pending', tries = 0, next_attempt_at = ? WHERE id = ?",
        [now, id],
      ),
    );
  }
}
