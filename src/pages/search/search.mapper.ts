import type { PageEntity } from '../entities/page.entity';

export interface SearchResultItem {
  slug: string;
  title: string;
  /** HTML: escaped text with the hits in `<mark>`. */
  snippet: string;
  tags: string[];
  updatedAt: string;
}

export type SearchResultPage = Pick<PageEntity, 'id' | 'slug' | 'title' | 'tags' | 'updatedAt'>;

export function toSearchResultItem(page: SearchResultPage, snippet: string): SearchResultItem {
  return {
    slug: page.slug,
    title: page.title,
    snippet,
    tags: page.tags,
    updatedAt: page.updatedAt.toISOString(),
  };
}
