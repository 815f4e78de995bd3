import { BatchController } from './batch/batch.controller';
import { BatchService } from './batch/batch.service';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/public-api';
import { PageAccessService } from './page-access.service';
import { PageBinService } from './page-bin.service';
import { PageBrowseService } from './page-browse.service';
import { PageInputService } from './page-input.service';
import { PageMoveService } from './page-move.service';
import { PageMovesController, RedirectsController } from './page-moves.controller';
import { PageRedirectsService } from './page-redirects.service';
import { PagePreviewService } from './page-preview.service';
import { PageRevisionsService } from './page-revisions.service';
import { PageWriterService } from './page-writer.service';
import { ProtectedPathsRepository } from './protection/protected-paths.repository';
import { ProtectedPathsService } from './protection/protected-paths.service';
import { PagesBrowseController } from './pages-browse.controller';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';
import { PageHtmlService } from './page-html.service';
import { PageTemplatesController } from './templates/page-templates.controller';
import { PageTemplatesRepository } from './templates/page-templates.repository';
import { PageTemplatesService } from './templates/page-templates.service';
import { PageReadPath } from './read-path/page-read-path';
import { PageResponseCache } from './read-path/page-response-cache';
import { LinkReportController } from './reports/link-report.controller';
import { LinkReportService } from './reports/link-report.service';
import { MarkdownRenderer } from './rendering/markdown-renderer';
import { PageDeriver } from './page-deriver';
import { RenderPool } from './rendering/render-pool';
import { BinController } from './bin.controller';
import { RevisionsController } from './revisions.controller';
import { PageSearchModule } from './search/page-search.module';
import { SiteVariablesService } from './site-variables.service';
import { PagesRepository } from './store/pages.repository';
import { SiteVariablesRepository } from './store/site-variables.repository';
import { PageTreeController } from './tree/page-tree.controller';
import { PageTreeService } from './tree/page-tree.service';

@Module({
  imports: [
    AuthModule,
    // Search, and its index (PAGE_SEARCH_INDEX), which PagesRepository writes inside each
    // page write transaction (injected with @Optional(), so pages also work without it).
    PageSearchModule,
  ],
  // Order matters: the `*slug` routes of PagesController must not shadow other /api routes.
  controllers: [
    BatchController,
    PagesBrowseController,
    PageTreeController,
    RevisionsController,
    BinController,
    LinkReportController,
    PageMovesController,
    RedirectsController,
    PageTemplatesController,
    PagesController,
  ],
  providers: [
    BatchService,
    PagesRepository,
    SiteVariablesRepository,
    MarkdownRenderer,
    RenderPool,
    PageDeriver,
    PageAccessService,
    PageInputService,
    SiteVariablesService,
    PageBrowseService,
    PageWriterService,
    PageBinService,
    PageRevisionsService,
    PagePreviewService,
    PagesService,
    PageHtmlService,
    PageTemplatesRepository,
    PageTemplatesService,
    PageResponseCache,
    PageReadPath,
    PageTreeService,
    LinkReportService,
    PageMoveService,
    PageRedirectsService,
    ProtectedPathsRepository,
    ProtectedPathsService,
  ],
  exports: [
    PageAccessService,
    PagesService,
    PageBrowseService,
    PageRevisionsService,
    PageRedirectsService,
    PageTreeService,
    PageMoveService,
    MarkdownRenderer,
    RenderPool,
    SiteVariablesService,
    // Change requests: the rules, and the write use cases their merge runs in one transaction.
    ProtectedPathsService,
    PageWriterService,
    PageBinService,
    PageHtmlService,
    PageTemplatesService,
  ],
})
export class PagesModule {}
