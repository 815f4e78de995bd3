import type { RevisionMetadata } from './page-metadata';

export type { ReviewDuePage } from '../store/page-lists';

/**
 * A page as an importer hands it over (CONTRACTS: PagesService.upsertImported): slug, title,
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
