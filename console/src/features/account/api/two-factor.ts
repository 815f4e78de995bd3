import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';
import { createPasskey } from '../../../lib/passkeys';

type Schemas = components['schemas'];
export type TwoFactorStatus = Schemas['TwoFactorStatusResponse'];
export type TotpSetup = Schemas['TotpSetupResponse'];
export type Passkey = Schemas['PasskeyResponse'];

const twoFactorKey = ['/api/me/two-factor'] as const;

export function useTwoFactor() {
  return useQuery({
    queryKey: twoFactorKey,
    queryFn: () => unwrap(api.GET('/api/me/two-factor')),
  });
}

/** A new TOTP secret and its QR code (answered this once). */
export function useStartTotp() {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/me/two-factor/totp')),
  });
}

/** The first code turns TOTP on; answers the recovery codes. */
export function useEnableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      unwrap(api.POST('/api/me/two-factor/totp/enable', { body: { code } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      unwrap(api.POST('/api/me/two-factor/totp/disable', { body: { password } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

/** Options from kb, the browser makes the passkey, kb checks and keeps it. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const options = await unwrap(api.POST('/api/me/passkeys/options'));
      const response = await createPasskey(options);
      return unwrap(
        api.POST('/api/me/passkeys', {
          body: { response: response as unknown as Record<string, unknown>, name },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (passkeyId: string) =>
      unwrap(api.DELETE('/api/me/passkeys/{passkeyId}', { params: { path: { passkeyId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}
