/** The event types live with the outbox (src/common/events/event-feed.ts). */
export { EVENT_TYPES, type EventType } from '../common/events/event-feed';

/** One recorded event: `seq` orders the feed; `id` names it to clients. */
export type { EventRecord } from './webhook-columns';
