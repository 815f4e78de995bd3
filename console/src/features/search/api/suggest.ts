import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** Quick-switcher suggestions (GET /api/search/suggest): slug prefix and title words. */
export function useSuggestions(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: ['/api/search/suggest', text],
    queryFn: () => unwrap(api.GET('/api/search/suggest', { params: { query: { q: text } } })),
    enabled: text !== '',
    placeholderData: (previous) => previous,
    staleTime: 10_000,
  });
}
