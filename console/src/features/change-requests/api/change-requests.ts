import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';
import { useCursorList } from '../../../api/use-cursor-list';

export type ChangeRequest = components['schemas']['ChangeRequestResponse'];
export type ChangeRequestSummary = components['schemas']['ChangeRequestSummaryResponse'];
export type ChangeRequestBody = components['schemas']['ChangeRequestDto'];
export type StateFilter = 'open' | 'merged' | 'closed' | 'all';

const listKey = (state: StateFilter) => ['/api/change-requests', state] as const;
const requestKey = (id: number) => ['/api/change-requests/{id}', id] as const;
const linksKey = (id: number) => ['/api/change-requests/{id}/links', id] as const;

export function useChangeRequests(state: StateFilter) {
  return useCursorList<ChangeRequestSummary>(listKey(state), (cursor) =>
    unwrap(api.GET('/api/change-requests', { params: { query: { state, cursor, limit: 50 } } })),
  );
}

export function useChangeRequest(id: number) {
  return useQuery({
    queryKey: requestKey(id),
    queryFn: () =>
      unwrap(api.GET('/api/change-requests/{id}', { params: { path: { id: String(id) } } })),
  });
}

export function useChangeRequestLinks(id: number, version: number | undefined) {
  return useQuery({
    queryKey: [...linksKey(id), version],
    enabled: version !== undefined,
    queryFn: () =>
      unwrap(
        api.GET('/api/change-requests/{id}/links', { params: { path: { id: String(id) } } }),
      ) as Promise<components['schemas']['ChangeRequestLinksResponse']>,
  });
}

export function proposeChanges(body: ChangeRequestBody): Promise<ChangeRequest> {
  return unwrap(api.POST('/api/change-requests', { body }));
}

type Action = 'approve' | 'request-changes' | 'merge' | 'close';

/** Approve, Request changes, Merge, Close: the request as answered replaces the cached one. */
export function useChangeRequestAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: Action) => {
      const params = { params: { path: { id: String(id) } } };
      switch (action) {
        case 'approve':
          return unwrap(api.POST('/api/change-requests/{id}/approve', params));
        case 'request-changes':
          return unwrap(api.POST('/api/change-requests/{id}/request-changes', params));
        case 'merge':
          return unwrap(api.POST('/api/change-requests/{id}/merge', params));
        case 'close':
          return unwrap(api.POST('/api/change-requests/{id}/close', params));
      }
    },
    onSuccess: (request) => {
      queryClient.setQueryData(requestKey(id), request);
      void queryClient.invalidateQueries({ queryKey: ['/api/change-requests'] });
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: requestKey(id) }),
  });
}

/** The HTML of Markdown as a page would show it (POST /api/preview), for the rendered diff. */
export function useRendered(content: string | null, slug: string) {
  return useQuery({
    queryKey: ['/api/preview', content, slug],
    enabled: content !== null,
    queryFn: ({ signal }) =>
      unwrap(api.POST('/api/preview', { body: { content: content ?? '', slug }, signal })),
    staleTime: Infinity,
    retry: false,
  });
}

export type ReviewComment = components['schemas']['ReviewCommentResponse'];
export type NewReviewComment = components['schemas']['CreateReviewCommentDto'];
const commentsKey = (id: number) => ['/api/change-requests/{id}/comments', id] as const;

/** Every comment on lines of the request's diff (at most 1,000: read page after page). */
export function useReviewComments(id: number) {
  return useQuery({
    queryKey: commentsKey(id),
    queryFn: async () => {
      const items: ReviewComment[] = [];
      let cursor: string | undefined;
      do {
        const page = await unwrap(
          api.GET('/api/change-requests/{id}/comments', {
            params: { path: { id: String(id) }, query: { cursor, limit: 100 } },
          }),
        );
        items.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return items;
    },
  });
}

export function useAddReviewComment(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewReviewComment) =>
      unwrap(
        api.POST('/api/change-requests/{id}/comments', {
          params: { path: { id: String(id) } },
          body,
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: commentsKey(id) }),
  });
}

export function useDeleteReviewComment(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) =>
      unwrap(
        api.DELETE('/api/change-requests/{id}/comments/{commentId}', {
          params: { path: { id: String(id), commentId } },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: commentsKey(id) }),
  });
}
