import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { isProblem } from '../../../api/problem';
import type { Me } from '../../../api/types';
import { signWithPasskey } from '../../../lib/passkeys';
import { meKey } from '../../../api/me';

/** What a correct password left to do: a second factor, or (REQUIRE_2FA) setting one up. */
export interface PendingStep {
  step: 'second_factor' | 'enrol';
  methods: string[];
}

export function pendingStep(error: unknown): PendingStep | null {
  if (!isProblem(error, 401)) return null;
  const methods = Array.isArray(error.body.methods) ? (error.body.methods as string[]) : [];
  if (error.code === 'second_factor_required') return { step: 'second_factor', methods };
  if (error.code === 'two_factor_enrolment_required') return { step: 'enrol', methods };
  return null;
}

/** A finished sign-in: the query cache starts afresh with the signed-in person. */
function useSignedIn() {
  const queryClient = useQueryClient();
  return (me: Me) => {
    queryClient.clear();
    queryClient.setQueryData(meKey, me);
  };
}

export function useVerifyCode() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: (code: string) => unwrap(api.POST('/auth/2fa/verify', { body: { code } })),
    onSuccess: signedIn,
  });
}

export function useStartEnrolment() {
  return useMutation({ mutationFn: () => unwrap(api.POST('/auth/2fa/enrol')) });
}

/** The first code turns TOTP on and signs in; the recovery codes are shown before going on. */
export function useFinishEnrolment() {
  return useMutation({
    mutationFn: (code: string) => unwrap(api.POST('/auth/2fa/enrol/enable', { body: { code } })),
  });
}

/** A passkey: alone (password-less), or after the password when the pending step allows it. */
export function usePasskeySignIn() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: async () => {
      const options = await unwrap(api.POST('/auth/passkey/options'));
      const response = await signWithPasskey(options);
      return unwrap(
        api.POST('/auth/passkey/verify', {
          body: { response: response as unknown as Record<string, unknown> },
        }),
      );
    },
    onSuccess: signedIn,
  });
}

export { useSignedIn };
