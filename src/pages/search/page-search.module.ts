import { Module } from '@nestjs/common';
import { Database } from '../../common/database/database';
import { PAGE_SEARCH_INDEX, PageSearchIndex } from '../store/search/page-search-index';
import { pageSearchIndexFor } from '../store/search/page-search-indexes';

/**
 * The search index (FTS5 or FULLTEXT, picked once by the database's dialect) that the pages
 * store writes to inside each page write and SearchService reads. Its own module so another
 * implementation (a search engine) can replace it.
 */
@Module({
  providers: [
    {
      provide: PAGE_SEARCH_INDEX,
      inject: [Database],
      useFactory: (db: Database): PageSearchIndex => pageSearchIndexFor(db.dialect),
    },
  ],
  exports: [PAGE_SEARCH_INDEX],
})
export class PageSearchModule {}
