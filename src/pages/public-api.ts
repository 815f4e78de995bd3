/**
 * What other modules may use of pages (docs/CONTRACTS.md): its Nest modules and the services
 * they export, the DTOs and answers of those services, and the functions and types with which
 * import and export read Markdown, slugs and metadata the way pages does. `npm run lint`
 * refuses an import of any other file of pages from outside it.
 */
export { CreatePageDto, UpdatePageDto } from './dto/page.dto';
export { MovePagesDto, MoveResultResponse } from './dto/page-move.dto';
export { PageAccessService } from './page-access.service';
export { PageBinService } from './page-bin.service';
export { PageBrowseService } from './page-browse.service';
export { PageMoveService } from './page-move.service';
export { PageRedirectsService } from './page-redirects.service';
export { PageRevisionsService } from './page-revisions.service';
export type { PageLinkResponse, PageResponse, PageSummaryResponse } from './pages.mapper';
export { PagesModule } from './pages.module';
export { PagesService } from './pages.service';
export { PageHtmlService } from './page-html.service';
export { PageTemplatesService } from './templates/page-templates.service';
export type { PageTemplateResponse } from './templates/page-template.dto';
export { RenderPool } from './rendering/render-pool';
export { PageSearchModule } from './search/page-search.module';
export type { SearchResultItem } from './search/search.mapper';
export { SearchService } from './search/search.service';
export { SiteVariablesService } from './site-variables.service';
export type { PageTreeNodeResponse } from './tree/page-tree.dto';
export { PageTreeService } from './tree/page-tree.service';
export { archiveMetadata } from './model/page-metadata';
export type { PublicMetadata, RevisionMetadata } from './model/page-metadata';
export type { ImportedPage, MediaReferences, ReviewDuePage } from './model/page-shapes';
export { codeFenceTracker } from './rendering/code-fences';
export {
  confluenceLanguage,
  fenceLanguage,
  languageFromParameters,
} from './rendering/code-language';
export { EMPHASIS_TAGS, TABLE_TAGS } from './rendering/html-tags';
export { resolveInternalHref, safeDecode } from './rendering/links';
export { markdownTitle, plainTitle } from './rendering/plain-title';
export { rewriteReferences } from './rendering/references';
export type { ReferenceKind, ReferenceRewriter } from './rendering/references';
export {
  MAX_SLUG_LENGTH,
  MAX_SLUG_SEGMENTS,
  normaliseSlug,
  normaliseSlugField,
  RESERVED_LAST_SEGMENT,
  slugProblems,
} from './model/slug';
export type { PageArchiveRecord, PageRecord } from './model/page-columns';
export { variableProblems } from './model/variables';
export { linkOccurrences } from './rendering/link-occurrences';
export { ProtectedPathsService } from './protection/protected-paths.service';
export type { ProtectedPath } from './protection/protected-paths.service';
export { PageWriterService } from './page-writer.service';
export type { WriteOptions } from './page-writer.service';
export { fittedSummary } from './model/revision-summary';
