import type { ChangeRequestEvent, DomainEventPayloads, DomainEventType } from './domain-events';

/**
 * The events kb records in its feed (GET /api/events) and sends to webhooks, in the order the
 * API documents them (webhook subscriptions are validated against this list).
 */
export const EVENT_TYPES = [
  'page.created',
  'page.updated',
  'page.binned',
  'page.restored',
  'page.purged',
  'page.moved',
  'redirect.deleted',
  'import.finished',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'comment.resolved',
  'comment.reopened',
  'change_request.created',
  'change_request.updated',
  'change_request.approved',
  'change_request.changes_requested',
  'change_request.merged',
  'change_request.closed',
  'change_request.commented',
] as const satisfies readonly DomainEventType[];
export type EventType = (typeof EVENT_TYPES)[number];

// Every domain event is a feed event: the compiler fails here when a new kind is missing above.
type Unlisted = Exclude<DomainEventType, EventType>;
export const EVERY_EVENT_TYPE_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;

/** How an event is stored in the feed: the page it is about (which decides who sees it), who acted, its public data. */
export interface FeedEntry {
  pageId: string | null;
  actorId: string | null;
  /** The `data` of the feed item and of the webhook body; never more than a caller may see. */
  data: Record<string, unknown>;
}

type PageEventPayload = DomainEventPayloads[
  'page.updated' | 'page.created' | 'page.purged' | 'page.moved' | 'redirect.deleted'];

/** What every page event shows: `{id, slug, title, from?, revision?, summary?, actorId}`. */
function pageEntry(event: PageEventPayload): FeedEntry {
  const data: Record<string, unknown> = { id: event.pageId, slug: event.slug, title: event.title };
  if ('from' in event) data.from = event.from;
  if ('revision' in event) data.revision = event.revision;
  if ('summary' in event) data.summary = event.summary ?? null;
  data.actorId = event.actorId;
  return { pageId: event.pageId, actorId: event.actorId, data };
}

/** What every comment event shows: `{id, threadId, parentId, pageId, slug, title, body?, actorId}`. */
function commentEntry(event: DomainEventPayloads['comment.created']): FeedEntry {
  const data: Record<string, unknown> = {
    id: event.commentId,
    threadId: event.threadId,
    parentId: event.parentId,
    pageId: event.pageId,
    slug: event.slug,
    title: event.title,
  };
  if (event.body !== undefined) data.body = event.body;
  data.actorId = event.actorId;
  return { pageId: event.pageId, actorId: event.actorId, data };
}

/**
 * A change request event: seen in the feed by who may see the page it names (the most
 * restricted page it touches; a request that only creates pages: administrators), without its
 * slugs or content.
 */
function changeRequestEntry(event: ChangeRequestEvent): FeedEntry {
  return {
    pageId: event.pageId,
    actorId: event.actorId,
    data: {
      id: event.requestId,
      title: event.title,
      state: event.state,
      actorId: event.actorId,
    },
  };
}

/** Each event type's feed entry, built from its payload (internal fields such as `ownerId` stay out). */
export const FEED_ENTRIES: {
  [K in DomainEventType]: (event: DomainEventPayloads[K]) => FeedEntry;
} = {
  'page.created': pageEntry,
  'page.updated': pageEntry,
  'page.binned': pageEntry,
  'page.restored': pageEntry,
  'page.purged': pageEntry,
  'page.moved': pageEntry,
  'redirect.deleted': pageEntry,
  'comment.created': commentEntry,
  'comment.updated': commentEntry,
  'comment.deleted': commentEntry,
  'comment.resolved': commentEntry,
  'comment.reopened': commentEntry,
  'import.finished': (event) => ({
    pageId: null,
    actorId: event.userId,
    data: { format: event.format, counts: event.counts, actorId: event.userId },
  }),
  'change_request.created': changeRequestEntry,
  'change_request.updated': changeRequestEntry,
  'change_request.approved': changeRequestEntry,
  'change_request.changes_requested': changeRequestEntry,
  'change_request.merged': changeRequestEntry,
  'change_request.closed': changeRequestEntry,
  'change_request.commented': changeRequestEntry,
};
