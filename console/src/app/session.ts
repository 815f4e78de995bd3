import type { QueryClient } from '@tanstack/react-query';
import { onSessionLost } from '../api/client';
import { paths } from '../lib/slugs';
import { meKey } from '../api/me';

/**
 * A 401 from any call means the session ended (expired, signed out elsewhere, revoked): the
 * person goes to sign-in and, once signed in, back to where they were.
 */
export function watchSession(queryClient: QueryClient, navigate: (to: string) => void): void {
  onSessionLost(() => {
    const { pathname, search } = window.location;
    if (pathname === '/login') return;
    const hadSession = queryClient.getQueryData(meKey) !== undefined;
    queryClient.clear();
    navigate(`${paths.login(pathname + search)}${hadSession ? '&expired=1' : ''}`);
  });
}
