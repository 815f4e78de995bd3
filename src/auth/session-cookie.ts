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
