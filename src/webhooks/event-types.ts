/** The events kb records in its feed and sends to webhooks. */
export const EVENT_TYPES = [
  'page.created',
  'page.updated',
  'page.binned',
  'page.restored',
  'page.purged',
  'page.moved',
  'redirect.deleted',
  'import.finished',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

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
