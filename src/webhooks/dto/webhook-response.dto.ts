import { ApiProperty } from '@nestjs/swagger';
import { listOf } from '../../common/openapi/list-of';
import { EVENT_TYPES, type EventType } from '../event-types';

const DATE_TIME = { type: String, format: 'date-time' } as const;
const EVENTS = { enum: EVENT_TYPES, enumName: 'EventType' } as const;

/** The answers built by webhooks.mapper.ts, with their OpenAPI schemas. */

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  url: string;

  @ApiProperty({ ...EVENTS, isArray: true })
  events: EventType[];

  @ApiProperty()
  active: boolean;

  @ApiProperty(DATE_TIME)
  createdAt: string;

  @ApiProperty(DATE_TIME)
  updatedAt: string;
}

export class WebhookCreatedResponse extends WebhookResponse {
  @ApiProperty({
    description: 'The signing secret (`whsec_` + base64): shown only in this answer.',
  })
  secret: string;
}

export class WebhookList extends listOf(WebhookResponse) {}

export class WebhookAttemptResponse {
  @ApiProperty(DATE_TIME)
  at: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The receiver's status; null: no answer.",
  })
  statusCode: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the attempt failed.' })
  error: string | null;

  @ApiProperty({ type: 'integer' })
  durationMs: number;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ description: 'The `webhook-id` header, the same on every attempt.' })
  id: string;

  @ApiProperty({ format: 'uuid', description: 'The event (as in GET /api/events).' })
  eventId: string;

  @ApiProperty(EVENTS)
  type: EventType;

  @ApiProperty({
    enum: ['pending', 'delivered', 'failed'],
    description: 'failed: given up after WEBHOOK_MAX_ATTEMPTS (redeliver to try again)',
  })
  state: 'pending' | 'delivered' | 'failed';

  @ApiProperty({ type: 'integer', description: 'Attempts in the current round.' })
  tries: number;

  @ApiProperty({ ...DATE_TIME, nullable: true, description: 'When pending: the next attempt.' })
  nextAttemptAt: string | null;

  @ApiProperty({ ...DATE_TIME, nullable: true })
  deliveredAt: string | null;

  @ApiProperty(DATE_TIME)
  createdAt: string;

  @ApiProperty({ type: [WebhookAttemptResponse], description: 'Every attempt, oldest first.' })
  attempts: WebhookAttemptResponse[];
}

export class WebhookDeliveryList extends listOf(WebhookDeliveryResponse) {}

export class EventResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty(EVENTS)
  type: EventType;

  @ApiProperty(DATE_TIME)
  occurredAt: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Page events: `{id, slug, title, revision?, summary?, actorId}` (`summary`: the change summary of page.created and page.updated, null when none); import.finished: `{format, counts, actorId}`.',
  })
  data: Record<string, unknown>;
}

export class EventFeed {
  @ApiProperty({ type: [EventResponse], description: 'Oldest first.' })
  items: EventResponse[];

  @ApiProperty({
    type: String,
    description: 'Pass as `after` to continue; never null (poll with it for newer events).',
  })
  nextCursor: string;
}
