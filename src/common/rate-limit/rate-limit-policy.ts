/**
 * Rate-limit classes and the IETF httpapi draft's headers (draft-ietf-httpapi-ratelimit-headers,
 * structured-field form): `RateLimit-Policy: "search";q=300;w=60` and
 * `RateLimit: "search";r=299;t=60`.
 */
export const RATE_LIMIT_CLASSES = ['read', 'write', 'search', 'import'] as const;
export type RateLimitClass = (typeof RATE_LIMIT_CLASSES)[number];

export interface RateLimitQuota {
  /** Requests allowed per window. */
  quota: number;
  windowSeconds: number;
}

/** Quota per class; null turns the class off (`0`). */
export type RateLimits = Record<RateLimitClass, RateLimitQuota | null>;

export const DEFAULT_RATE_LIMITS: Record<RateLimitClass, string> = {
  read: '1200/60s',
  write: '600/60s',
  search: '300/60s',
  import: '60/3600s',
};

/** `1200/60s` (or `1200/60`) → quota and window; `0` → null; anything else → undefined. */
export function parseRateLimit(raw: string): RateLimitQuota | null | undefined {
  if (raw === '0') return null;
  const match = /^(\d{1,9})\/(\d{1,7})s?$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) return undefined;
  return { quota: Number(match[1]), windowSeconds: Number(match[2]) };
}

/** The class of a request under /api: search and import have their own budgets. */
export function classOf(method: string, path: string): RateLimitClass {
  const route = path.split('?')[0].replace(/\/+$/, '');
  if (route === '/api/search') return 'search';
  if (method === 'POST' && route === '/api/import') return 'import';
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'read' : 'write';
}

export function policyHeader(cls: RateLimitClass, limit: RateLimitQuota): string {
  return `"${cls}";q=${limit.quota};w=${limit.windowSeconds}`;
}

export function rateLimitHeader(
  cls: RateLimitClass,
  remaining: number,
  resetSeconds: number,
): string {
  return `"${cls}";r=${Math.max(0, remaining)};t=${Math.max(0, Math.ceil(resetSeconds))}`;
}

/** The fixed window a moment falls in: its counter key part and when it ends. */
export function windowAt(now: number, windowSeconds: number): { index: number; endsAt: number } {
  const length = windowSeconds * 1000;
  const index = Math.floor(now / length);
  return { index, endsAt: (index + 1) * length };
}
