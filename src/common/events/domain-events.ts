/**
 * Domain events: features announce what happened; others (notifications) listen.
 * Emitted after the transaction commits, never inside it.
 */
export const PAGE_UPDATED = 'page.updated';
export const PAGE_BINNED = 'page.binned';
export const PAGE_CREATED = 'page.created';
export const PAGE_RESTORED = 'page.restored';
export const PAGE_PURGED = 'page.purged';
export const IMPORT_FINISHED = 'import.finished';

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
