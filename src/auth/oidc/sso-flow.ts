import type { Request, Response } from 'express';
import { audit } from '../../common/logging/audit';
import { Problem } from '../../common/problems/problem';

/** How long a started sign-in may take at the provider (its `sso_login_states` row lives this long). */
export const FLOW_TTL_MS = 10 * 60_000;
/** Allowed difference between kb's and a provider's clocks (ID token times, assertion windows). */
export const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * A path inside kb: `returnTo` resolved against KB_PUBLIC_URL must stay on its origin and
 * under its path; anything else (another host, `//evil`, `javascript:`) becomes kb's start.
 */
export function safeReturnTo(publicUrl: string | undefined, returnTo: string | undefined): string {
  const base = new URL(`${publicUrl}/`);
  if (!returnTo || returnTo.length > 2000) return base.pathname;
  let target: URL;
  try {
    target = new URL(returnTo, base);
  } catch {
    return base.pathname;
  }
  const inside =
    target.origin === base.origin &&
    target.pathname.startsWith(base.pathname) &&
    !target.pathname.startsWith('//');
  return inside ? `${target.pathname}${target.search}${target.hash}` : base.pathname;
}

/** The audit line of a refused single sign-on (the reason code; never a token or assertion). */
export function auditSsoFailure(provider: string, reason: string, ip: string, detail?: string) {
  audit('auth.sso.login.failed', {
    actorId: null,
    target: `provider:${provider}`,
    reason,
    ...(detail ? { detail } : {}),
    ip,
  });
}

/**
 * A browser navigating (it asks for HTML) sees a refused sign-in on kb's sign-in screen, in
 * words; an API client gets the problem document.
 */
export async function browserAware(
  publicUrl: string | undefined,
  req: Request,
  res: Response,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    const browser = req.accepts(['application/json', 'application/problem+json', 'text/html']);
    if (!(error instanceof Problem) || browser !== 'text/html') throw error;
    res.redirect(303, `${publicUrl ?? ''}/login?sso_error=${encodeURIComponent(error.code)}`);
  }
}
