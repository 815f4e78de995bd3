import type { FieldProblem } from '../../common/problems/problem';

export const MAX_SLUG_SEGMENTS = 20;
export const MAX_SLUG_LENGTH = 255;
export const RESERVED_LAST_SEGMENT = 'raw';
const SEGMENT = /^[\p{L}\p{M}\p{N}_.-]+$/u;

/**
 * A slug written in a request body or document (`slug`, `deprecatedTarget`, an imported page):
 * surrounding whitespace removed, NFC, lowercase. Slashes stay, so `/lead` and `trail/` keep
 * their empty segment and slugProblems() reports it (`slug_empty_segment`) like `a//b`.
 */
export function normaliseSlugField(input: string): string {
  return input.trim().normalize('NFC').toLowerCase().normalize('NFC');
}

/**
 * A slug taken from a URL path or a link (`/api/pages/a/b/`, `[x](/a/b/)`): as
 * normaliseSlugField(), and the slashes around it, which are routing, are removed.
 */
export function normaliseSlug(input: string): string {
  return normaliseSlugField(input).replace(/^\/+|\/+$/g, '');
}

/**
 * Checks a normalised slug: one field problem per violation (several may apply at once).
 * `forCreate` also refuses the reserved last segment `raw` (it would collide with `/raw`).
 */
export function slugProblems(slug: string, field = 'slug', forCreate = true): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (code: string, message: string) => problems.push({ field, code, message });
  if (slug.length === 0) {
    add('slug_empty', 'The slug must not be empty.');
    return problems;
  }
  if ([...slug].length > MAX_SLUG_LENGTH)
    add('slug_too_long', `The slug must be at most ${MAX_SLUG_LENGTH} characters.`);
  const segments = slug.split('/');
  if (segments.length > MAX_SLUG_SEGMENTS)
    add('slug_too_many_segments', `The slug may have at most ${MAX_SLUG_SEGMENTS} segments.`);
  if (segments.some((s) => s === ''))
    add(
      'slug_empty_segment',
      'The slug must not contain empty segments: no "//" and no "/" at its start or end.',
    );
  if (segments.some((s) => s === '.' || s === '..'))
    add('slug_dot_segment', 'The segments "." and ".." are not allowed.');
  if (segments.some((s) => s !== '' && s !== '.' && s !== '..' && !SEGMENT.test(s))) {
    add('slug_invalid_characters', 'Each segment may hold only letters, digits, "-", "_" and ".".');
  }
  if (forCreate && segments[segments.length - 1] === RESERVED_LAST_SEGMENT) {
    add('slug_reserved', `The last segment "${RESERVED_LAST_SEGMENT}" is reserved.`);
  }
  return problems;
}

/** True when `slug` (already normalised) is a valid stored slug. */
export function isValidSlug(slug: string, forCreate = false): boolean {
  return slugProblems(slug, 'slug', forCreate).length === 0;
}
