import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { NotificationPage } from '../../../api/types';

const key = ['/api/notifications'] as const;

function listNotifications(limit: number, cursor?: string): Promise<NotificationPage> {
  return unwrap(api.GET('/api/notifications', { params: { query: { limit: limit, cursor } } }));
}

/** The newest few with the unread count, refreshed every minute and on focus. */
export function useNotificationSummary() {
  return useQuery({
    queryKey: [...key, 'summary'],
    queryFn: () => listNotifications(8),
    refetchInterval: 60_000,
  });
}

export function useInbox() {
  const query = useInfiniteQuery({
    queryKey: [...key, 'inbox'],
    queryFn: ({ pageParam }) => listNotifications(20, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  return {
    ...query,
    items: query.data?.pages.flatMap((p) => p.items) ?? [],
    unreadCount: query.data?.pages[0]?.unreadCount ?? 0,
  };
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST('/api/notifications/{id}/read', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/notifications/all/read')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
