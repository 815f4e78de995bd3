import { column, RowOf, valueOf } from '../common/database/column-defs';
import type { EventType } from '../common/events/event-feed';

/*
 * The tables webhooks reads and writes, as data (docs/data-layer.md, "Tables as data"): the
 * repositories select, decode and insert rows from these constants.
 */

/** `events`: the append-only log (the Outbox appends; webhooks reads it for the feed). */
export const EVENT_COLUMNS = {
  seq: column.int('seq', { primary: true }),
  id: column.uuid('id'),
  type: column.varchar('type', 32, {}, valueOf<EventType>()),
  /** The page it is about (page events), which decides who may see it in the feed. */
  pageId: column.uuid('page_id', { nullable: true }),
  actorId: column.uuid('actor_id', { nullable: true }),
  data: column.json('data', {}, valueOf<Record<string, unknown>>()),
  occurredAt: column.datetime('occurred_at'),
};
export type EventRecord = RowOf<typeof EVENT_COLUMNS>;

/** `webhooks`: the subscriptions. */
export const WEBHOOK_COLUMNS = {
  id: column.uuid('id', { primary: true }),
  url: column.varchar('url', 2048),
  events: column.json('events', {}, valueOf<EventType[]>()),
  secret: column.varchar('secret', 200),
  active: column.bool('active', { default: true }),
  createdBy: column.uuid('created_by', { nullable: true }),
  createdAt: column.datetime('created_at'),
  updatedAt: column.datetime('updated_at'),
};
export type WebhookRecord = RowOf<typeof WEBHOOK_COLUMNS>;

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** `webhook_deliveries`: the durable outbox of one webhook, one row per event. */
export const DELIVERY_COLUMNS = {
  id: column.uuid('id', { primary: true }),
  webhookId: column.uuid('webhook_id'),
  eventSeq: column.int('event_seq'),
  /** Deliveries with the same key go out in event order (a page's events). */
  orderKey: column.varchar('order_key', 64),
  state: column.varchar('state', 16, {}, valueOf<DeliveryState>()),
  tries: column.int('tries', { default: 0 }),
  nextAttemptAt: column.datetime('next_attempt_at'),
  /** Until when one instance holds it for an attempt (internal: never answered). */
  leaseUntil: column.datetime('lease_until', { nullable: true }),
  lastStatus: column.int('last_status', { nullable: true }),
  lastError: column.varchar('last_error', 500, { nullable: true }),
  lastAttemptAt: column.datetime('last_attempt_at', { nullable: true }),
  deliveredAt: column.datetime('delivered_at', { nullable: true }),
  createdAt: column.datetime('created_at'),
};
export type DeliveryRecord = Omit<RowOf<typeof DELIVERY_COLUMNS>, 'leaseUntil'>;

/** `webhook_attempts`: one row per try of a delivery. */
export const ATTEMPT_COLUMNS = {
  id: column.uuid('id', { primary: true }),
  deliveryId: column.uuid('delivery_id'),
  attemptedAt: column.datetime('attempted_at'),
  statusCode: column.int('status_code', { nullable: true }),
  error: column.varchar('error', 500, { nullable: true }),
  durationMs: column.int('duration_ms'),
};
export type AttemptRecord = Omit<RowOf<typeof ATTEMPT_COLUMNS>, 'id'>;
