import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

const digestKey = ['/api/me/digest'] as const;

/** Whether the daily email digest of the inbox is on, and where it goes. */
export function useDigest() {
  return useQuery({ queryKey: digestKey, queryFn: () => unwrap(api.GET('/api/me/digest')) });
}

export function useSetDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => unwrap(api.PUT('/api/me/digest', { body: { enabled } })),
    onSuccess: (settings) => queryClient.setQueryData(digestKey, settings),
  });
}
