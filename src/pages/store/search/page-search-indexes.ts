import type { Dialect } from '../../../common/database/dialect';
import { MysqlPageSearchIndex } from './mysql-page-search.index';
import type { PageSearchIndex } from './page-search-index';
import { SqlitePageSearchIndex } from './sqlite-page-search.index';

/** The database's own full-text index: FTS5 on SQLite, FULLTEXT on MySQL/MariaDB. */
export function pageSearchIndexFor(dialect: Dialect): PageSearchIndex {
  return dialect.choose<() => PageSearchIndex>({
    sqlite: () => new SqlitePageSearchIndex(),
    mysql: () => new MysqlPageSearchIndex(),
  })();
}

/** Whether `index` is the database's own (what the `searchPages` ReadQuery builds in a worker). */
export function isDatabaseIndex(index: PageSearchIndex): boolean {
  return index instanceof SqlitePageSearchIndex || index instanceof MysqlPageSearchIndex;
}
