import type { EventType } from '../common/events/event-feed';

/** The event types live with the outbox (src/common/events/event-feed.ts). */
export { EVENT_TYPES, type EventType } from '../common/events/event-feed';

/** One recorded event: `seq` orders the feed; `id` names it to clients. */
export interface EventRecord {
  seq: number;
  id: string;
  type: EventType;
  /** The page it is about (page events), which decides who may see it in the feed. */
  pageId: string | null;
  actorId: string | null;
  data: Record<string, unknown>;
  occurredAt: Date;
}
