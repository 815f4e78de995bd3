import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';
import { useCursorList } from '../../../api/use-cursor-list';
import { meKey } from '../../../api/me';

type Schemas = components['schemas'];
export type Account = Schemas['AccountResponse'];
export type Session = Schemas['SessionResponse'];
export type AccountChange = Pick<Schemas['UpdateMeDto'], 'displayName' | 'email'>;

const accountKey = ['/api/me/account'] as const;
const sessionsKey = ['/api/me/sessions'] as const;

export function useAccount() {
  return useQuery({
    queryKey: accountKey,
    queryFn: () => unwrap(api.GET('/api/me/account')),
  });
}

/** Display name and email; the header's name (GET /api/me) follows. */
export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: AccountChange) => unwrap(api.PATCH('/api/me', { body: change })),
    onSuccess: (me) => {
      queryClient.setQueryData(meKey, me);
      return queryClient.invalidateQueries({ queryKey: accountKey });
    },
  });
}

/** Answers how many other sessions ended; the sessions list is read again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) =>
      unwrap(api.POST('/api/me/password', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useSessions() {
  return useCursorList<Session>(sessionsKey, (cursor) =>
    unwrap(api.GET('/api/me/sessions', { params: { query: { cursor, limit: 50 } } })),
  );
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/me/sessions/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/me/sessions')),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
