import { api, unwrap } from '../../../api/client';
import type { SearchFacets, SearchHit } from '../../../api/types';
import { useCursorList } from '../../../api/use-cursor-list';

export type SearchSort = 'relevance' | 'updated';
export type { SearchFacets };

/**
 * Search results, paged with "More results". The first page also carries the spelling
 * suggestion and the facet counts (asked for once, not with every page).
 */
export function useSearch(q: string, sort: SearchSort) {
  const list = useCursorList<SearchHit>(['/api/search', q, sort], (cursor) =>
    unwrap(
      api.GET('/api/search', {
        params: {
          query: {
            q,
            cursor,
            limit: 20,
            sort,
            ...(cursor === undefined ? { facets: 'tags,folders' } : {}),
          },
        },
      }),
    ),
  );
  const first = list.data?.pages[0] as
    { didYouMean?: string | null; facets?: SearchFacets } | undefined;
  return { ...list, didYouMean: first?.didYouMean ?? null, facets: first?.facets };
}
