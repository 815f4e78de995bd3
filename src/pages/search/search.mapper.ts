import type { SearchResultPage } from '../store/page-lists';

export type { SearchResultPage };

export interface SearchResultItem {
  slug: string;
  title: string;
  /** HTML: escaped text with the hits in `<mark>`. */
  snippet: string;
  tags: string[];
  updatedAt: string;
}

export function toSearchResultItem(page: SearchResultPage, snippet: string): SearchResultItem {
  return {
    slug: page.slug,
    title: page.title,
    snippet,
    tags: page.tags,
    updatedAt: page.updatedAt.toISOString(),
  };
}
