import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';

export const watchesKey = ['/api/watches'] as const;

export interface Watch {
  slug: string;
  subtree: boolean;
}

/** The caller's watches (the first 100: enough to tell whether a page is watched). */
export function useWatches() {
  return useQuery({
    queryKey: watchesKey,
    queryFn: () => unwrap(api.GET('/api/watches', { params: { query: { limit: 100 } } })),
  });
}

/** Watches or stops watching a page (or a folder, `subtree`). */
export function useToggleWatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ watch, on }: { watch: Watch; on: boolean }) => {
      if (on) await unwrap(api.PUT('/api/watches', { body: watch }));
      else await unwrap(api.DELETE('/api/watches', { body: watch }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: watchesKey }),
  });
}
