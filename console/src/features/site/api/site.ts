import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { useInvalidate } from '../../../api/invalidate';
import type { components } from '../../../api/kb-api';
import { useCursorList } from '../../../api/use-cursor-list';

type Schemas = components['schemas'];
export type BinItem = Schemas['BinItemResponse'];
export type ReviewDueItem = Schemas['ReviewDueItemResponse'];

const binKey = ['/api/bin'] as const;
const variablesKey = ['/api/variables'] as const;

export function useBin() {
  return useCursorList<BinItem>(binKey, (cursor) =>
    unwrap(api.GET('/api/bin', { params: { query: { cursor, limit: 50 } } })),
  );
}

/** After a restore, the bin and every page list may differ. */
export function useRestoreFromBin() {
  const invalidate = useInvalidate();
  return useMutation({
    /** `slug`: restore under this slug instead of the page's own (taken) one. */
    mutationFn: ({ id, slug }: { id: string; slug?: string }) =>
      unwrap(
        api.POST('/api/bin/{id}/restore', {
          params: { path: { id } },
          ...(slug === undefined ? {} : { body: { slug } }),
        }),
      ),
    onSuccess: () => invalidate(binKey, ['/api/recent'], ['/api/tree']),
  });
}

export function usePurge() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/bin/{id}', { params: { path: { id } } })),
    onSuccess: () => invalidate(binKey),
  });
}

export function useSiteVariables() {
  return useQuery({
    queryKey: variablesKey,
    queryFn: () => unwrap(api.GET('/api/variables')),
  });
}

export function useSaveSiteVariables() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: Record<string, string>) =>
      unwrap(api.PUT('/api/variables', { body: { variables } })),
    onSuccess: (saved) => queryClient.setQueryData(variablesKey, saved),
  });
}

export function useReviewDue() {
  return useCursorList<ReviewDueItem>(['/api/review-due'], (cursor) =>
    unwrap(api.GET('/api/review-due', { params: { query: { cursor, limit: 50 } } })),
  );
}
