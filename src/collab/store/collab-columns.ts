import { column, RowOf, valueOf } from '../../common/database/column-defs';

/** `collab_updates`: a page's shared document as appended Yjs updates and snapshots. */
export const COLLAB_UPDATE_COLUMNS = {
  id: column.uuid('id', { primary: true }),
  pageId: column.uuid('page_id'),
  /** A Yjs update (or several merged into a snapshot), base64. */
  data: column.text('data'),
  /** Ids of the people who typed in it since the page's previous revision. */
  authors: column.json('authors', {}, valueOf<string[]>()),
  /** The page revision the shared text was last written as (or seeded from). */
  revision: column.int('revision'),
  createdAt: column.datetime('created_at'),
};

export type CollabUpdateRecord = RowOf<typeof COLLAB_UPDATE_COLUMNS>;
export const COLLAB_UPDATE_KEYS = Object.keys(
  COLLAB_UPDATE_COLUMNS,
) as (keyof CollabUpdateRecord)[];
