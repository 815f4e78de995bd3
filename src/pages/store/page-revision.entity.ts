import { EntitySchema } from 'typeorm';
import { entityColumns } from '../../common/database/column-defs';
import { REVISION_COLUMNS, RevisionRecord } from '../model/revision-columns';

/** The `page_revisions` table as TypeORM knows it, derived from REVISION_COLUMNS. */
export const PageRevisionsTable = new EntitySchema<RevisionRecord>({
  name: 'PageRevision',
  tableName: 'page_revisions',
  columns: entityColumns(REVISION_COLUMNS),
});
