import { EntitySchema } from 'typeorm';
import { entityColumns } from '../../common/database/column-defs';
import { REVISION_COLUMNS, RevisionRecord } from '../model/page-columns';

export type { RevisionMetadata } from '../model/page-metadata';

/** One stored state of a page (derived from REVISION_COLUMNS). */
export type PageRevisionEntity = RevisionRecord;
export const PageRevisionEntity = new EntitySchema<PageRevisionEntity>({
  name: 'PageRevisionEntity',
  tableName: 'page_revisions',
  columns: entityColumns(REVISION_COLUMNS),
});
