/** Express 5 hands a `*slug` wildcard over as its segments. */
export function joinSlugParam(raw: string | string[] | undefined): string {
  return Array.isArray(raw) ? raw.join('/') : (raw ?? '');
}
