import type { Request } from 'express';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isUnsafeMethod(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase());
}

/**
 * Cross-site request check for cookie-authenticated requests (CSRF). Browsers send `Origin`
 * on every cross-origin POST and `Sec-Fetch-Site` on every request; a request carrying
 * neither comes from a non-browser client, which a cookie cannot be ridden by.
 */
export function isSameOriginRequest(req: Request, allowedOrigins: string[]): boolean {
  const origin = req.get('origin');
  if (origin !== undefined) {
    if (origin === 'null') return false;
    // req.protocol and req.host honour X-Forwarded-Proto/-Host only when TRUST_PROXY trusts the peer.
    const own = `${req.protocol}://${req.host}`;
    return origin === own || allowedOrigins.includes(origin);
  }
  const site = req.get('sec-fetch-site');
  return site === undefined || site === 'same-origin' || site === 'none';
}
