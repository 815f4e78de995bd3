import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { Me } from './types';

export const meKey = ['/api/me'] as const;

export function getMe(): Promise<Me> {
  return unwrap(api.GET('/api/me'));
}

/** The signed-in user; a 401 means nobody is (the shell sends the person to sign-in). */
export function useMe() {
  return useQuery({ queryKey: meKey, queryFn: getMe, staleTime: 5 * 60_000, retry: false });
}

/** The signed-in user where the shell guarantees one. */
export function useCurrentUser(): Me {
  const { data } = useMe();
  if (!data) throw new Error('useCurrentUser outside the signed-in shell');
  return data;
}

export function canEdit(user: Me): boolean {
  return user.role === 'admin' || user.role === 'editor';
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { username: string; password: string }) =>
      unwrap(api.POST('/auth/login', { body })),
    onSuccess: (me) => {
      queryClient.clear();
      queryClient.setQueryData(meKey, me);
    },
  });
}

/**
 * Signs out; answers the identity provider's end-session address when the session was made
 * through single sign-on (the browser goes there to end that session too), else null.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await unwrap(api.POST('/auth/oidc/logout'))).redirectTo,
    onSettled: () => queryClient.clear(),
  });
}
