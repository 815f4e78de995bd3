import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com): a secret is `whsec_` + base64 of its
 * bytes; a message is signed as `v1,` + base64(HMAC-SHA256(secret bytes, `id.timestamp.body`)).
 */
export const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The secret's bytes, or null when it is not `whsec_` + base64 of 24 to 64 bytes. */
export function secretBytes(secret: string): Buffer | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  const bytes = Buffer.from(encoded, 'base64');
  return bytes.length >= 24 && bytes.length <= 64 ? bytes : null;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one attempt: the id stays the same on every attempt, the time does not. */
export function signWebhook(
  secret: string,
  id: string,
  timestamp: Date,
  body: string,
): SignedHeaders {
  const bytes = secretBytes(secret);
  if (!bytes) throw new Error('webhook secret is not whsec_ + base64');
  const seconds = String(Math.floor(timestamp.getTime() / 1000));
  const mac = createHmac('sha256', bytes)
    .update(`${id}.${seconds}.${body}`, 'utf8')
    .digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${mac}` };
}
