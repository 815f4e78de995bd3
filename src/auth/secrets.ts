import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'kb_pat_';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function newSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** `kb_pat_` + 43 base64url characters: recognisable to secret scanners, 256 bits of entropy. */
export function newAccessToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}
