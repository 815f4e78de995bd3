import type { SearchResultPage } from '../model/page-shapes';
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
