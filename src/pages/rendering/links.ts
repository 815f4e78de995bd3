import { isValidSlug, normaliseSlug } from '../model/slug';

/** Paths on this server that are not pages (API, auth, export, health). */
const NON_PAGE_PREFIXES = ['api', 'auth', 'export', 'healthz', 'readyz'];
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export interface InternalTarget {
  slug: string;
  /** `#anchor` or '' */
  fragment: string;
}

/** Percent-decodes a link target; a malformed escape leaves it as written. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Resolves a link target written in a page's Markdown to the slug it names, or null when it is
 * not an internal page link (external URL, `mailto:`, pure `#anchor`, `/api/...`, invalid slug).
 * Absolute targets (`/a/b`) name a slug; relative ones (`x`, `./x`, `../x`) resolve against
 * the page's parent, as a browser resolves them against the page's URL `/a/b`. Query strings
 * and fragments are not part of the slug.
 */
export function resolveInternalHref(href: string, baseSlug: string | null): InternalTarget | null {
  const raw = href.trim();
  if (
    raw === '' ||
    raw.startsWith('#') ||
    raw.startsWith('?') ||
    raw.startsWith('//') ||
    raw.startsWith('\\')
  )
    return null;
  if (SCHEME.test(raw)) return null;
  const hashAt = raw.indexOf('#');
  const fragment = hashAt >= 0 ? raw.slice(hashAt) : '';
  let path = hashAt >= 0 ? raw.slice(0, hashAt) : raw;
  const queryAt = path.indexOf('?');
  if (queryAt >= 0) path = path.slice(0, queryAt);
  path = safeDecode(path);
  if (path === '') return null;

  let segments: string[];
  if (path.startsWith('/')) {
    segments = [];
  } else {
    if (baseSlug === null) return null;
    segments = baseSlug.split('/').slice(0, -1);
  }
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') segments.pop();
    else segments.push(part);
  }
  if (segments.length === 0) return null;
  if (NON_PAGE_PREFIXES.includes(segments[0].toLowerCase())) return null;
  const slug = normaliseSlug(segments.join('/'));
  if (!isValidSlug(slug)) return null;
  return { slug, fragment };
}

/** The href a resolved internal link renders with. */
export function internalHref(target: InternalTarget): string {
  return '/' + target.slug.split('/').map(encodeURIComponent).join('/') + target.fragment;
}
