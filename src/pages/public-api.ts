/**
 * The pages module's functions and types for other modules (docs/CONTRACTS.md): import and
 * export read Markdown, slugs and metadata the way pages does. Its injectable services are
 * imported from their own files, as PagesModule exports them; nothing else of pages is used
 * outside it.
 */
export type { PageEntity } from './entities/page.entity';
export { archiveMetadata } from './page-metadata';
export type { PublicMetadata, RevisionMetadata } from './page-metadata';
export type { ImportedPage, MediaReferences, ReviewDuePage } from './pages.types';
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
} from './slug';
export type { PageArchiveRecord, PageRecord } from './store/page-columns';
export { variableProblems } from './variables';
export { linkOccurrences } from './rendering/link-occurrences';
