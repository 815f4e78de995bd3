import { EntitySchema } from 'typeorm';
import { entityColumns } from '../../common/database/column-defs';
import { PAGE_COLUMNS, PageRecord } from '../model/page-columns';

/**
 * The `pages` table as TypeORM knows it (the migration CLI, `Database.manager`), derived from
 * PAGE_COLUMNS (the one list of a page's columns). `liveSlug` equals `slug` while the page is
 * live and is NULL in the bin: its unique index makes slugs unique among live pages only, so
 * binning frees the slug. `tags` and `groupNames` are denormalised copies of page_tags /
 * page_groups so a read needs no join; the relation tables serve the list, tag and visibility
 * queries.
 */
export const PagesTable = new EntitySchema<PageRecord>({
  name: 'Page',
  tableName: 'pages',
  columns: entityColumns(PAGE_COLUMNS),
  indices: [{ name: 'uq_pages_live_slug', columns: ['liveSlug'], unique: true }],
});
