import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';

type Schemas = components['schemas'];
export type CommentItem = Schemas['CommentResponse'];
export type CommentPage = Schemas['CommentList'];
export type NewComment = Schemas['CreateCommentDto'];
export type CommentState = 'open' | 'resolved';

/** Every comment query of a page starts with this key (the live stream refreshes them all). */
export const commentsKey = (slug: string) => ['/api/comments', slug] as const;

/**
 * A page's comments in one state, up to 100 (threads in order with their replies); the counts
 * of both states come with every answer.
 */
export function useComments(slug: string, state: CommentState) {
  return useQuery({
    queryKey: [...commentsKey(slug), state],
    queryFn: () =>
      unwrap(api.GET('/api/comments', { params: { query: { slug, state, limit: 100 } } })),
  });
}

function useCommentMutation<V, R>(slug: string, call: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: commentsKey(slug) }),
  });
}

export function useCreateComment(slug: string) {
  return useCommentMutation(slug, (body: Omit<NewComment, 'slug'>) =>
    unwrap(api.POST('/api/comments', { body: { ...body, slug } })),
  );
}

export function useEditComment(slug: string) {
  return useCommentMutation(slug, ({ id, body }: { id: string; body: string }) =>
    unwrap(api.PATCH('/api/comments/{id}', { params: { path: { id } }, body: { body } })),
  );
}

export function useDeleteComment(slug: string) {
  return useCommentMutation(slug, (id: string) =>
    unwrap(api.DELETE('/api/comments/{id}', { params: { path: { id } } })),
  );
}

export function useResolveComment(slug: string) {
  return useCommentMutation(slug, ({ id, resolved }: { id: string; resolved: boolean }) =>
    resolved
      ? unwrap(api.POST('/api/comments/{id}/resolve', { params: { path: { id } } }))
      : unwrap(api.POST('/api/comments/{id}/reopen', { params: { path: { id } } })),
  );
}

/** People who may be mentioned on the page, for `@` autocomplete (empty until asked). */
export function useMentionable(slug: string, q: string | null) {
  return useQuery({
    queryKey: ['/api/comments/mentionable', slug, q],
    queryFn: () =>
      unwrap(api.GET('/api/comments/mentionable', { params: { query: { slug, q: q ?? '' } } })),
    enabled: q !== null,
    staleTime: 30_000,
  });
}
