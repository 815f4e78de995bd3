import type { Request, Response } from 'express';
import { SESSION_COOKIE } from './sessions.service';

/** HttpOnly (no script reads it), SameSite=Lax, and Secure whenever the request came over HTTPS. */
function cookieOptions(req: Request) {
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' } as const;
}

/** Sets the browser session cookie a sign-in answers with. */
export function setSessionCookie(
  req: Request,
  res: Response,
  session: { secret: string; maxAgeMs: number },
): void {
  res.cookie(SESSION_COOKIE, session.secret, { ...cookieOptions(req), maxAge: session.maxAgeMs });
}

/** Clears it again on sign-out (the same attributes, or the browser keeps it). */
export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}

/** The pending sign-in between the password and the second factor (HttpOnly, /auth only). */
export const PENDING_COOKIE = 'kb_2fa';

export function setPendingCookie(
  req: Request,
  res: Response,
  pending: { pending: string; maxAgeMs: number },
): void {
  res.cookie(PENDING_COOKIE, pending.pending, {
    ...cookieOptions(req),
    path: '/auth',
    maxAge: pending.maxAgeMs,
  });
}

export function clearPendingCookie(req: Request, res: Response): void {
  res.clearCookie(PENDING_COOKIE, { ...cookieOptions(req), path: '/auth' });
}

/** The pending cookie's value, if the request carries one. */
export function pendingCookie(req: Request): string | undefined {
  const value = (req.cookies as Record<string, string> | undefined)?.[PENDING_COOKIE];
  return typeof value === 'string' && value.length <= 128 ? value : undefined;
}
