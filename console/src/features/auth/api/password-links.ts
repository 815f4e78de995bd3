import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

/** Whether "Forgot password?" works here (the server sends mail). */
export function usePasswordResetStatus() {
  return useQuery({
    queryKey: ['/auth/password-reset'],
    queryFn: async () => (await unwrap(api.GET('/auth/password-reset'))).enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) => unwrap(api.POST('/auth/password-reset', { body: { email } })),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      unwrap(api.POST('/auth/password-reset/confirm', { body })),
  });
}

/** What an invitation link invites to; a dead link is a problem (404, 410) to show. */
export function useInvitation(token: string) {
  return useQuery({
    queryKey: ['/auth/invitations/lookup', token],
    queryFn: () => unwrap(api.POST('/auth/invitations/lookup', { body: { token } })),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}

export function useAcceptInvitation() {
  return useMutation({
    mutationFn: (body: {
      token: string;
      username: string;
      password: string;
      displayName?: string;
    }) => unwrap(api.POST('/auth/invitations/accept', { body })),
  });
}
