import type { SearchResultPage } from '../model/page-shapes';
import type { AttachmentHit } from '../store/search/attachment-search';
import type { SearchResultItem } from './search-response.dto';

export type { SearchResultPage };

// The response shape (and its OpenAPI schema) is in search-response.dto.ts.
export type { SearchResultItem } from './search-response.dto';

export function toSearchResultItem(page: SearchResultPage, snippet: string): SearchResultItem {
  return {
    slug: page.slug,
    title: page.title,
    snippet,
    tags: page.tags,
    updatedAt: page.updatedAt.toISOString(),
  };
}

/** An attachment hit: the first page using it carries the item, the document is `attachment`. */
export function toAttachmentResultItem(hit: AttachmentHit): SearchResultItem {
  const [page] = hit.pages;
  return {
    ...toSearchResultItem(page, hit.snippet),
    attachment: { id: hit.mediaId, filename: hit.filename },
    usedOn: hit.pages.map((p) => ({ slug: p.slug, title: p.title })),
  };
}
