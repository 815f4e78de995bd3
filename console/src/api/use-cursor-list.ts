import { useInfiniteQuery } from '@tanstack/react-query';
import type { ListPage } from './types';

/** A list the API pages with cursors, as an infinite query ("Load more"). */
export function useCursorList<T>(
  key: readonly unknown[],
  fetchPage: (cursor?: string) => Promise<ListPage<T>>,
) {
  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) ?? [] };
}
