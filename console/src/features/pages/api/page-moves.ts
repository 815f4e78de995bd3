import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';

export type MoveRequest = components['schemas']['MovePagesDto'];
export type MoveResult = components['schemas']['MoveResultResponse'];

/**
 * After a move or a binning every list that names pages may differ (and, after a move, every
 * page read: backlinks and rewritten links). Not awaited: the dialog navigates at once, and a
 * refetch of the page it was opened on must not unmount it first.
 */
function useInvalidatePages(pages: boolean) {
  const queryClient = useQueryClient();
  return () => {
    const keys = [['/api/tree'], ['/api/recent'], ['/api/pages'], ['/api/tags']];
    if (pages) keys.push(['/api/pages/{slug}']);
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
}

/** POST /api/pages/move: a page or a folder to a new slug; old slugs become redirects. */
export function useMovePages() {
  const invalidate = useInvalidatePages(true);
  return useMutation({
    mutationFn: (body: MoveRequest) => unwrap(api.POST('/api/pages/move', { body })),
    onSuccess: () => invalidate(),
  });
}

/** DELETE /api/pages/{slug}: the page goes to the bin (administrators). */
export function useMoveToBin() {
  const invalidate = useInvalidatePages(false);
  return useMutation({
    mutationFn: (slug: string) =>
      unwrap(api.DELETE('/api/pages/{slug}', { params: { path: { slug } } })),
    onSuccess: () => invalidate(),
  });
}

/**
 * POST /api/change-requests with one move: where a protected path refuses the move itself
 * (409 `change_request_required`), it goes for review instead. Answers the request's id.
 */
export function useProposeMove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ slug, title, to }: { slug: string; title: string; to: string }) =>
      unwrap(
        api.POST('/api/change-requests', {
          body: { title: `Move “${title}” to ${to}`, changes: [{ slug, action: 'move', to }] },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['/api/change-requests'] }),
  });
}
