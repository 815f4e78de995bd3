import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';

export type OAuthGrant = components['schemas']['OAuthGrantResponse'];

const key = ['/api/oauth/grants'] as const;

/** The apps the person authorised (OAuth grants). */
export function useOAuthGrants() {
  return useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/api/oauth/grants')) });
}

export function useRevokeOAuthGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/oauth/grants/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
