import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/kb-api';

export type SsoProvider = components['schemas']['SsoProviderResponse'];

/** The single sign-on providers: one "Sign in with …" button each. */
export function useSsoProviders() {
  return useQuery({
    queryKey: ['/auth/providers'],
    queryFn: async () => (await unwrap(api.GET('/auth/providers'))).items,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Where a provider's sign-in starts, returning to `next` (a path of the console) afterwards. */
export function ssoSignInUrl(provider: SsoProvider, next: string): string {
  return `${provider.signInUrl}?returnTo=${encodeURIComponent(next)}`;
}

/** A sign-in a provider's callback refused (`/login?sso_error=<code>`), in words. */
export function ssoErrorMessage(code: string | null): string | null {
  switch (code) {
    case null:
    case '':
      return null;
    case 'sso_state_invalid':
      return 'That sign-in could not be finished: it was unknown, expired, already used, or started in another browser. Start again.';
    case 'sso_token_invalid':
    case 'sso_assertion_invalid':
      return 'The identity provider’s answer could not be verified, so nobody was signed in. Try again.';
    case 'sso_assertion_replayed':
      return 'That answer of the identity provider was already used, so nobody was signed in. Start again.';
    case 'sso_idp_initiated_refused':
      return 'kb did not ask for that sign-in. Use a “Sign in with …” button below.';
    case 'sso_denied':
      return 'The identity provider did not sign you in.';
    case 'account_disabled':
      return 'Your kb account is disabled. Ask an administrator to enable it.';
    case 'sso_username_taken':
      return 'Your username at the identity provider belongs to another kb account. Ask an administrator.';
    case 'sso_username_invalid':
    case 'sso_claim_missing':
      return 'The identity provider did not send a username kb can use. Ask an administrator.';
    case 'sso_provider_unavailable':
      return 'The identity provider could not be reached. Try again in a moment.';
    case 'sso_provider_not_found':
      return 'That sign-in provider is not configured.';
    default:
      return 'Single sign-on did not work. Try again, or ask an administrator.';
  }
}
