import { randomBytes } from 'node:crypto';
import { Problem } from '../../common/problems/problem';
import { sha256Hex } from '../secrets';

/** A link's secret: 256 bits, base64url; the database keeps its SHA-256 only. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

export function linkTokenHash(token: string): string {
  return sha256Hex(token);
}

/**
 * Where a link of the console opens with `token`: `<KB_PUBLIC_URL><path>#token=...`. The token
 * sits in the fragment, which browsers never send to a server, so no access log or proxy keeps
 * it; the console reads it from there.
 */
export function consoleLink(publicUrl: string | undefined, path: string, token: string): string {
  return `${publicUrl ?? ''}${path}#token=${token}`;
}

/** 410: a link that was used, revoked or has expired; the words say which. */
export class LinkGoneProblem extends Problem {
  constructor(code: string, detail: string) {
    super(410, code, detail);
  }
}
