import type { PageRecord } from './page-columns';
import type { RevisionMetadata } from './page-metadata';

/*
 * The shapes of a page beside those derived from the columns (page-columns.ts: PageRecord,
 * PageHead, PageSummary, PageMetadata, PageArchiveRecord; page-state.ts: PageState, Derived).
 * docs/data-layer.md, "Page shapes", lists them all and says which is for what.
 */

/** A page whose review is due, with its owner's username (notifications). */
export type ReviewDuePage = Pick<PageRecord, 'id' | 'slug' | 'title' | 'ownerId'> & {
  ownerName: string | null;
  nextReviewAt: Date;
};

/** What a search result shows of a page. */
export type SearchResultPage = Pick<PageRecord, 'id' | 'slug' | 'title' | 'tags' | 'updatedAt'>;

/**
 * A page as an importer hands it over (CONTRACTS: PageWriterService.upsertImported): slug, title,
 * content and any of the page's metadata fields (PAGE_COLUMNS) in their JSON form, groups by
 * name; `nextReviewAt` may also be a Date. Absent fields keep a replaced page's values.
 */
export type ImportedPage = { slug: string; title: string; content: string } & Partial<
  Omit<RevisionMetadata, 'nextReviewAt'>
> & {
    nextReviewAt?: Date | string | null;
    /** The change summary the import's revision stores (a kb archive's; trimmed, cut to fit). */
    summary?: string | null;
  };

export type ImportOutcome = 'created' | 'replaced' | 'unchanged';

/** The pages that reference a media item, as far as one caller may know them. */
export interface MediaReferences {
  /** Slugs the caller can see: live pages visible to them; for admins also binned pages. */
  slugs: string[];
  /** How many other pages (invisible to the caller, or in the bin) reference it, unnamed. */
  hiddenReferences: number;
}
