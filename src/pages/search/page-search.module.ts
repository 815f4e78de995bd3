import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isMysql } from '../../common/database/data-source';
import { PageEntity } from '../entities/page.entity';
import { PageAccessService } from '../page-access.service';
import { MysqlPageSearchIndex } from '../store/search/mysql-page-search.index';
import { PAGE_SEARCH_INDEX, PageSearchIndex } from '../store/search/page-search-index';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { SqlitePageSearchIndex } from '../store/search/sqlite-page-search.index';

/**
 * Search: the index (FTS5 or FULLTEXT, picked by the database) that PagesModule writes to, and
 * `GET /api/search`. PagesModule imports this module, so it cannot import PagesModule back: it
 * provides the pages' stateless visibility rule (PageAccessService) itself.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PageEntity])],
  controllers: [SearchController],
  providers: [
    PageAccessService,
    SearchService,
    {
      provide: PAGE_SEARCH_INDEX,
      inject: [DataSource],
      useFactory: (dataSource: DataSource): PageSearchIndex =>
        isMysql(dataSource.options)
          ? new MysqlPageSearchIndex(dataSource)
          : new SqlitePageSearchIndex(dataSource),
    },
  ],
  exports: [PAGE_SEARCH_INDEX],
})
export class PageSearchModule {}
