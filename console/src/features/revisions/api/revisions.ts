import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { RevisionSummary } from '../../../api/types';
import { useCursorList } from '../../../api/use-cursor-list';
import { pageKey } from '../../../api/pages';

export function useRevisions(slug: string) {
  return useCursorList<RevisionSummary>(['/api/revisions', slug], (cursor) =>
    unwrap(api.GET('/api/revisions', { params: { query: { slug, cursor, limit: 30 } } })),
  );
}

export function useRevision(id: string | null) {
  return useQuery({
    queryKey: ['/api/revisions/{id}', id],
    queryFn: () => unwrap(api.GET('/api/revisions/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
    staleTime: Infinity,
  });
}

/** Writes a new revision from an old one, on top of the revision the person looked at. */
export function useRestoreRevision(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, baseRevision }: { id: string; baseRevision: number }) =>
      unwrap(
        api.POST('/api/revisions/{id}/restore', {
          params: { path: { id } },
          body: { baseRevision },
        }),
      ),
    onSuccess: (page) => {
      queryClient.setQueryData(pageKey(page.slug), page);
      void queryClient.invalidateQueries({ queryKey: ['/api/revisions', slug] });
      void queryClient.invalidateQueries({ queryKey: ['/api/recent'] });
    },
  });
}
