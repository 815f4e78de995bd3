import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { toDate } from '../common/database/column-defs';
import { Database, Tx } from '../common/database/database';
import type { EventType } from './event-types';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventSeq: number;
  orderKey: string;
  state: DeliveryState;
  tries: number;
  nextAttemptAt: Date;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A delivery with its event, as the dispatcher sends it and the list shows it. */
export interface DeliveryWithEvent extends DeliveryRecord {
  event: { id: string; type: EventType; data: string; occurredAt: Date };
}

export interface AttemptRecord {
  deliveryId: string;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const COLUMNS =
  'd.id, d.webhook_id, d.event_seq, d.order_key, d.state, d.tries, d.next_attempt_at, ' +
  'd.last_status, d.last_error, d.last_attempt_at, d.delivered_at, d.created_at, ' +
  'e.id AS event_id, e.type AS event_type, e.data AS event_data, e.occurred_at AS event_at';

function decode(row: Record<string, unknown>): DeliveryWithEvent {
  const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: String(row.id),
    webhookId: String(row.webhook_id),
    eventSeq: Number(row.event_seq),
    orderKey: String(row.order_key),
    state: row.state as DeliveryState,
    tries: Number(row.tries),
    nextAttemptAt: toDate(row.next_attempt_at)!,
    lastStatus: numberOrNull(row.last_status),
    lastError: (row.last_error as string | null) ?? null,
    lastAttemptAt: toDate(row.last_attempt_at),
    deliveredAt: toDate(row.delivered_at),
    createdAt: toDate(row.created_at)!,
    event: {
      id: String(row.event_id),
      type: row.event_type as EventType,
      data: String(row.event_data),
      occurredAt: toDate(row.event_at)!,
    },
  };
}

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
      await sql.run(
        'INSERT INTO webhook_attempts (id, delivery_id, attempted_at, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)',
        [
          randomUUID(),
          attempt.deliveryId,
          attempt.attemptedAt,
          attempt.statusCode,
          attempt.error,
          attempt.durationMs,
        ],
      );
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
        'SELECT delivery_id, attempted_at, status_code, error, duration_ms FROM webhook_attempts ' +
          `WHERE delivery_id IN (${deliveryIds.map(() => '?').join(', ')}) ORDER BY attempted_at, id`,
        deliveryIds,
      );
    return rows.map((row) => ({
      deliveryId: String(row.delivery_id),
      attemptedAt: toDate(row.attempted_at)!,
      statusCode: row.status_code === null ? null : Number(row.status_code),
      error: (row.error as string | null) ?? null,
      durationMs: Number(row.duration_ms),
    }));
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
