import { column, RowOf, valueOf } from '../../common/database/column-defs';
import type { RevisionMetadata } from './page-metadata';

/** One stored state of a page: every create, update, restore and import writes one. */
export const REVISION_COLUMNS = {
  id: column.uuid('id', { primary: true }),
  pageId: column.uuid('page_id'),
  revision: column.int('revision'),
  slug: column.varchar('slug', 255),
  title: column.varchar('title', 255),
  content: column.text('content'),
  /** The page's metadata fields (PAGE_COLUMNS `metadata`) as JSON. */
  metadata: column.json('metadata', {}, valueOf<RevisionMetadata>()),
  /** created | updated | restored | imported */
  action: column.varchar('action', 16),
  authorId: column.uuid('author_id', { nullable: true }),
  createdAt: column.datetime('created_at'),
  /** The author's optional change summary (src/pages/model/revision-summary.ts). */
  summary: column.varchar('summary', 500, { nullable: true }),
  /** Usernames of the others who typed in a live session since the previous revision. */
  coAuthors: column.json('co_authors', { nullable: true }, valueOf<string[]>()),
};

export type RevisionRecord = RowOf<typeof REVISION_COLUMNS>;
export const REVISION_KEYS = Object.keys(REVISION_COLUMNS) as (keyof RevisionRecord)[];
