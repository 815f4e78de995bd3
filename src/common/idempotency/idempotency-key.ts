import { createHash } from 'node:crypto';
import { BadRequestProblem } from '../problems/problem';

/** The longest key kept (the draft sets none; Stripe's is 255). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The Idempotency-Key header's value: the IETF httpapi draft makes it a Structured Field
 * string (`"abc"`, RFC 8941 escapes `\"` and `\\`); a bare token (`abc`) is accepted alike, so
 * `"abc"` and `abc` are the same key. Undefined when the header is absent; 400 when malformed.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const raw = (Array.isArray(header) ? header.join(', ') : header).trim();
  let key: string | undefined = raw;
  if (raw.startsWith('"')) {
    const match = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(raw);
    key = match?.[1].replace(/\\(["\\])/g, '$1');
  } else if (!/^[\x21\x23-\x2b\x2d-\x7e]+$/.test(raw)) {
    // A bare value: visible ASCII without quotes, commas (two keys) or spaces.
    key = undefined;
  }
  if (!key || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new BadRequestProblem(
      'invalid_idempotency_key',
      `Idempotency-Key must be one key of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters, quoted ("abc") or bare (abc).`,
    );
  }
  return key;
}

/** JSON with object keys sorted at every level: equal JSON values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of a canonical form. */
export function fingerprintOf(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * A multipart body's fingerprint: its fields (by name, order-free) and its files in the order
 * sent, each by name and the SHA-256 of its bytes. The boundary and part headers do not count.
 */
export function multipartFingerprint(
  fields: Record<string, string>,
  files: { name: string; sha256: string }[],
): string {
  return fingerprintOf(canonicalJson({ fields, files }));
}

/**
 * What a route's intake received, when the body is not JSON (multipart uploads): its
 * fingerprint, and how to drop it when the answer is replayed instead of the handler running.
 */
export interface ReceivedBody {
  fingerprint: string;
  discard(): Promise<void>;
}

export const RECEIVED_BODY = Symbol('receivedBody');
