import type { HeaderObject } from '@nestjs/swagger';

/** Response headers clients rely on, described once and referenced by the operations. */
export const RESPONSE_HEADERS = {
  ETag: {
    description:
      'The page revision as a strong entity tag (`"3"`): send it back in `If-Match` to update, or in `If-None-Match` to revalidate.',
    schema: { type: 'string', example: '"3"' },
  },
  Location: {
    description: 'Where the created resource is read.',
    schema: { type: 'string', example: '/api/pages/guides/getting-started' },
  },
  'Set-Cookie': {
    description: 'The HttpOnly, SameSite=Lax session cookie `kb_session`.',
    schema: { type: 'string' },
  },
  'Content-Disposition': {
    description: 'attachment (or inline for PDFs) with the file name.',
    schema: { type: 'string' },
  },
  'Content-Range': {
    description: 'The bytes sent (206), or `bytes */<size>` when the range is outside (416).',
    schema: { type: 'string', example: 'bytes 0-99/1234' },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Policy': {
    description:
      'The quota of this request\'s class (IETF httpapi draft, structured field): `"search";q=300;w=60` (requests per window in seconds). Classes: read, write, search, import (RATE_LIMIT_*).',
    schema: { type: 'string', example: '"search";q=300;w=60' },
  },
  RateLimit: {
    description:
      'What is left of the quota: `"search";r=299;t=60` (remaining requests, seconds until the window resets).',
    schema: { type: 'string', example: '"search";r=299;t=60' },
  },
  Vary: {
    description:
      'The request headers the answer depends on (`Accept`: the same URL answers JSON or XML).',
    schema: { type: 'string', example: 'Accept' },
  },
  'WWW-Authenticate': {
    description: 'The challenge: `Bearer realm="kb"`.',
    schema: { type: 'string' },
  },
} satisfies Record<string, HeaderObject>;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

export function headerRefs(names: readonly ResponseHeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}
