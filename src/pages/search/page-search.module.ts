import { Module } from '@nestjs/common';
import { Database } from '../../common/database/database';
import { PAGE_SEARCH_INDEX, PageSearchIndex } from '../store/search/page-search-index';
import { pageSearchIndexFor } from '../store/search/page-search-indexes';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { SearchSynonymsService } from './search-synonyms.service';
import { SynonymsRepository } from '../store/search/synonyms.repository';

/**
 * Search: the index (FTS5 or FULLTEXT, picked once by the database's dialect) that the pages
 * store writes to inside each page write, and `GET /api/search`. PagesModule imports this
 * module, so it cannot import PagesModule back: the search runs on the pages store's plain
 * functions (store/search/search-pages.ts), which need nothing but the Database.
 */
@Module({
  controllers: [SearchController],
  providers: [
    SearchService,
    SearchSynonymsService,
    SynonymsRepository,
    {
      provide: PAGE_SEARCH_INDEX,
      inject: [Database],
      useFactory: (db: Database): PageSearchIndex => pageSearchIndexFor(db.dialect),
    },
  ],
  exports: [PAGE_SEARCH_INDEX, SearchService],
})
export class PageSearchModule {}
