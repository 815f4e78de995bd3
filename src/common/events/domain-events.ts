/**
 * Domain events: features record what happened with `Outbox.record(tx, type, payload)`
 * inside the transaction of the change (the event row and its webhook deliveries commit with
 * it, with the rows of `Outbox.within` handlers: inbox notices); `@OnEvent(type)` listeners get
 * the payload after the commit.
 * A new kind: its payload here, its entry in `DomainEventPayloads`, `EVENT_TYPES` and
 * `FEED_ENTRIES` (event-feed.ts), then one `record` call (docs/data-layer.md, "The outbox").
 */
export const PAGE_UPDATED = 'page.updated';
export const PAGE_BINNED = 'page.binned';
export const PAGE_CREATED = 'page.created';
export const PAGE_RESTORED = 'page.restored';
export const PAGE_PURGED = 'page.purged';
export const PAGE_MOVED = 'page.moved';
export const REDIRECT_DELETED = 'redirect.deleted';
export const IMPORT_FINISHED = 'import.finished';
export const COMMENT_CREATED = 'comment.created';
export const COMMENT_UPDATED = 'comment.updated';
export const COMMENT_DELETED = 'comment.deleted';
export const COMMENT_RESOLVED = 'comment.resolved';
export const COMMENT_REOPENED = 'comment.reopened';

export interface PageUpdatedEvent {
  pageId: string;
  slug: string;
  title: string;
  revision: number;
  ownerId: string | null;
  actorId: string;
  /** The change summary written with the revision (null: none); absent on a bin restore. */
  summary?: string | null;
}

export interface PageBinnedEvent {
  pageId: string;
  slug: string;
  title: string;
  ownerId: string | null;
  actorId: string;
}

/** A binned page is live again, at its revision before the bin (shaped as an update). */
export type PageRestoredEvent = PageUpdatedEvent;

/** A page took a new slug (POST /api/pages/move); `from` is now a redirect to it. */
export interface PageMovedEvent extends PageUpdatedEvent {
  from: string;
}

/** An administrator deleted the redirect from `from` to the page. */
export interface RedirectDeletedEvent {
  pageId: string;
  slug: string;
  title: string;
  from: string;
  actorId: string;
}

export interface PagePurgedEvent {
  pageId: string;
  slug: string;
  title: string;
  actorId: string;
}

export interface PageCreatedEvent {
  pageId: string;
  slug: string;
  title: string;
  ownerId: string | null;
  actorId: string;
  /** The change summary of the first revision (null: none). */
  summary: string | null;
}

/** What every page event says: which page (as it is now) and who acted. */
export function pageEvent(
  page: { id: string; slug: string; title: string; ownerId: string | null },
  actorId: string,
): PageBinnedEvent {
  return { pageId: page.id, slug: page.slug, title: page.title, ownerId: page.ownerId, actorId };
}

export interface ImportFinishedEvent {
  userId: string;
  format: string;
  dryRun: boolean;
  counts: Record<string, number>;
  /** The import job that ran it (POST /api/import with async=true). */
  jobId?: string;
}

/**
 * Something happened to a comment (docs/comments.md). The feed and webhooks show who acted, the
 * comment, its thread and its page; the lists of people to tell stay internal.
 */
export interface CommentEvent {
  commentId: string;
  threadId: string;
  parentId: string | null;
  pageId: string;
  slug: string;
  title: string;
  actorId: string;
  /** created, updated: the Markdown body. */
  body?: string;
  /** Internal: people mentioned for the first time (checked: they may see the page). */
  mentionedIds?: string[];
  /** Internal: a reply's thread's author and earlier repliers. */
  participantIds?: string[];
}

/** What every change request event says (docs/review.md). */
export interface ChangeRequestEvent {
  requestId: number;
  title: string;
  state: 'open' | 'merged' | 'closed';
  authorId: string;
  actorId: string;
  /** The slugs it touches (`to` of moves included). */
  slugs: string[];
  /** The first existing page it touches: decides who sees the event in the feed (null: admins). */
  pageId: string | null;
  /** Users asked to review (notified on `created`, `updated`, `merged`, `closed`). */
  reviewerIds: string[];
  /** Internal, `commented`: who wrote in the thread before (notified with the author). */
  participantIds?: string[];
}

/** Every domain event by type, with the payload `Outbox.record` takes and listeners receive. */
export interface DomainEventPayloads {
  'page.created': PageCreatedEvent;
  'page.updated': PageUpdatedEvent;
  'page.binned': PageBinnedEvent;
  'page.restored': PageRestoredEvent;
  'page.purged': PagePurgedEvent;
  'page.moved': PageMovedEvent;
  'redirect.deleted': RedirectDeletedEvent;
  'import.finished': ImportFinishedEvent;
  'comment.created': CommentEvent;
  'comment.updated': CommentEvent;
  'comment.deleted': CommentEvent;
  'comment.resolved': CommentEvent;
  'comment.reopened': CommentEvent;
  'change_request.created': ChangeRequestEvent;
  'change_request.updated': ChangeRequestEvent;
  'change_request.approved': ChangeRequestEvent;
  'change_request.changes_requested': ChangeRequestEvent;
  'change_request.merged': ChangeRequestEvent;
  'change_request.closed': ChangeRequestEvent;
  'change_request.commented': ChangeRequestEvent;
}

/** The change request event types, in the order the API documents them. */
export const CHANGE_REQUEST_EVENTS = [
  'change_request.created',
  'change_request.updated',
  'change_request.approved',
  'change_request.changes_requested',
  'change_request.merged',
  'change_request.closed',
  'change_request.commented',
] as const;
export type ChangeRequestEventType = (typeof CHANGE_REQUEST_EVENTS)[number];

export type DomainEventType = keyof DomainEventPayloads;
