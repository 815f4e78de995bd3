/** Express 5 hands a wildcard parameter (`*slug`, `*key`) over as its segments; kb addresses it as one string. */
export function joinSlugParam(raw: string | string[] | undefined): string {
  return Array.isArray(raw) ? raw.join('/') : (raw ?? '');
}
