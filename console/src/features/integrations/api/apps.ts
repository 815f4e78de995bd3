import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';

export type OAuthClient = components['schemas']['OAuthClientResponse'];

const key = ['/api/oauth/clients'] as const;

/** Every app registered with kb's authorization server, with who authorised it. */
export function useOAuthClients() {
  return useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/api/oauth/clients')) });
}

export function useBanOAuthClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST('/api/oauth/clients/{id}/ban', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
