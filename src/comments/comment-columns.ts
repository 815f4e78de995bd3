import { column, RowOf, selectList, rowDecoder, valueOf } from '../common/database/column-defs';

/**
 * Where an inline thread's passage is: the quote as the person selected it in the rendered page,
 * up to 64 characters of text either side, and where it was found last (`start`, `end`: offsets
 * into the page's text, anchoring.ts). Kept when the passage is gone (the thread is outdated).
 */
export interface StoredAnchor {
  quote: string;
  prefix: string;
  suffix: string;
  start: number;
  end: number;
}

/** The `comments` table (migration 1795843269443-Comments). */
export const COMMENT_COLUMNS = {
  id: column.uuid('id', { primary: true }),
  pageId: column.uuid('page_id'),
  /** The thread's first comment (its own id for that one). */
  threadId: column.uuid('thread_id'),
  parentId: column.uuid('parent_id', { nullable: true }),
  authorId: column.uuid('author_id', { nullable: true }),
  body: column.text('body'),
  /** The body rendered and sanitised by the page renderer, at the write. */
  html: column.text('html'),
  anchor: column.json('anchor', { nullable: true }, valueOf<StoredAnchor | null>()),
  outdated: column.bool('outdated'),
  /** The page revision the anchor was last matched against. */
  anchorRevision: column.int('anchor_revision', { nullable: true }),
  resolvedAt: column.datetime('resolved_at', { nullable: true }),
  resolvedBy: column.uuid('resolved_by', { nullable: true }),
  createdAt: column.datetime('created_at'),
  updatedAt: column.datetime('updated_at'),
  editedAt: column.datetime('edited_at', { nullable: true }),
};

export type CommentRecord = RowOf<typeof COMMENT_COLUMNS>;
export const COMMENT_KEYS = Object.keys(COMMENT_COLUMNS) as (keyof CommentRecord)[];
export const commentSelect = (alias: string): string =>
  selectList(COMMENT_COLUMNS, COMMENT_KEYS, alias);
export const decodeComment = rowDecoder(COMMENT_COLUMNS, COMMENT_KEYS) as (
  row: Record<string, unknown>,
) => CommentRecord;
