import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';

export type OAuthRequest = components['schemas']['OAuthRequestResponse'];

/** The authorization request an app sent the person here with (the app, the scopes). */
export function useOAuthRequest(uid: string) {
  return useQuery({
    queryKey: ['/api/oauth/requests', uid],
    queryFn: () => unwrap(api.GET('/api/oauth/requests/{uid}', { params: { path: { uid } } })),
    retry: false,
    staleTime: Infinity,
  });
}

/** Approves (optionally for some slug patterns only) or denies; answers where the browser goes next (back to the app through kb). */
export function useDecideOAuthRequest(uid: string) {
  return useMutation({
    mutationFn: ({ decision, paths }: { decision: 'approve' | 'deny'; paths?: string[] }) =>
      unwrap(
        api.POST('/api/oauth/requests/{uid}', {
          params: { path: { uid } },
          body: { decision, ...(paths && paths.length > 0 ? { paths } : {}) },
        }),
      ),
  });
}
