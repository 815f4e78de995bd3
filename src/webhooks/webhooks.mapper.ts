import type { AttemptRecord, DeliveryWithEvent } from './webhook-deliveries.repository';
import type {
  EventResponse,
  WebhookCreatedResponse,
  WebhookDeliveryResponse,
  WebhookResponse,
} from './dto/webhook-response.dto';
import type { EventRecord } from './event-types';
import type { WebhookRecord } from './webhooks.repository';

export function toWebhookResponse(webhook: WebhookRecord): WebhookResponse {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    active: webhook.active,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}

export function toWebhookCreated(webhook: WebhookRecord): WebhookCreatedResponse {
  return { ...toWebhookResponse(webhook), secret: webhook.secret };
}

export function toDeliveryResponse(
  delivery: DeliveryWithEvent,
  attempts: AttemptRecord[],
): WebhookDeliveryResponse {
  return {
    id: delivery.id,
    eventId: delivery.event.id,
    type: delivery.event.type,
    state: delivery.state,
    tries: delivery.tries,
    nextAttemptAt: delivery.state === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    attempts: attempts.map((a) => ({
      at: a.attemptedAt.toISOString(),
      statusCode: a.statusCode,
      error: a.error,
      durationMs: a.durationMs,
    })),
  };
}

export function toEventResponse(event: EventRecord): EventResponse {
  return {
    id: event.id,
    type: event.type,
    occurredAt: event.occurredAt.toISOString(),
    data: event.data,
  };
}
