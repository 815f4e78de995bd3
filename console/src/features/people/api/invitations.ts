import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';

type Schemas = components['schemas'];
export type Invitation = Schemas['InvitationResponse'];
export type NewInvitation = Schemas['CreateInvitationDto'];

const invitationsKey = ['/api/invitations'] as const;

/** Invitations neither accepted nor revoked (expired ones say so). */
export function useInvitations() {
  return useQuery({
    queryKey: invitationsKey,
    queryFn: async () => (await unwrap(api.GET('/api/invitations'))).items,
  });
}

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewInvitation) => unwrap(api.POST('/api/invitations', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsKey }),
  });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/invitations/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsKey }),
  });
}
