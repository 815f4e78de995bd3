import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { PageGroupEntity } from './entities/page-group.entity';
import { PageLinkEntity } from './entities/page-link.entity';
import { PageMediaRefEntity } from './entities/page-media-ref.entity';
import { PageRevisionEntity } from './entities/page-revision.entity';
import { PageTagEntity } from './entities/page-tag.entity';
import { PageEntity } from './entities/page.entity';
import { SiteVariableEntity, SiteVariableStateEntity } from './entities/site-variable.entity';
import { PageAccessService } from './page-access.service';
import { PagesService } from './pages.service';
import { PageSearchModule } from './search/page-search.module';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      PageEntity,
      PageRevisionEntity,
      PageTagEntity,
      PageGroupEntity,
      PageLinkEntity,
      PageMediaRefEntity,
      SiteVariableEntity,
      SiteVariableStateEntity,
    ]),
    AuthModule,
    // SEARCH: the search engineer imports PageSearchModule here (it provides PAGE_SEARCH_INDEX).
    PageSearchModule,
  ],
  controllers: [],
  providers: [PageAccessService, PagesService],
  exports: [PageAccessService, PagesService],
})
export class PagesModule {}
