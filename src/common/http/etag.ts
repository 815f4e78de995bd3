/**
 * If-None-Match (RFC 9110 §13.1.2): `*` matches any current representation; otherwise a
 * comma-separated list of entity tags compared weakly (an optional `W/` on either side is
 * ignored). An absent or blank header matches nothing.
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined || header.trim() === '') return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}
