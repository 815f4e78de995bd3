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
import { MarkdownRenderer } from './rendering/markdown-renderer';
import { PageAccessService } from './page-access.service';
import { PageBinService } from './page-bin.service';
import { PageBrowseService } from './page-browse.service';
import { PageInputService } from './page-input.service';
import { PagePreviewService } from './page-preview.service';
import { PageRevisionsService } from './page-revisions.service';
import { PageStore } from './store/page-store';
import { PageWriterService } from './page-writer.service';
import { PagesBrowseController } from './pages-browse.controller';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';
import { PageSearchModule } from './search/page-search.module';
import { BinController, RevisionsController } from './revisions.controller';
import { SiteVariablesService } from './site-variables.service';

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
    // Search: exports PAGE_SEARCH_INDEX, which PageStore calls inside each write transaction
    // (injected with @Optional(), so pages also work without it).
    PageSearchModule,
  ],
  // Order matters: the `*slug` routes of PagesController must not shadow other /api routes.
  controllers: [PagesBrowseController, RevisionsController, BinController, PagesController],
  providers: [
    MarkdownRenderer,
    PageAccessService,
    PageInputService,
    PageStore,
    SiteVariablesService,
    PageBrowseService,
    PageWriterService,
    PageBinService,
    PageRevisionsService,
    PagePreviewService,
    PagesService,
  ],
  exports: [PageAccessService, PagesService, MarkdownRenderer, SiteVariablesService],
})
export class PagesModule {}
