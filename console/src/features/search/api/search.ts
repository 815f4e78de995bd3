import { api, unwrap } from '../../../api/client';
import type { SearchHit } from '../../../api/types';
import { useCursorList } from '../../../api/use-cursor-list';

export function useSearch(q: string) {
  return useCursorList<SearchHit>(['/api/search', q], (cursor) =>
    unwrap(api.GET('/api/search', { params: { query: { q, cursor, limit: 20 } } })),
  );
}
