/**
 * Path → slug mapping of the importer (documented in docs/import.md):
 * - the file extension of the last segment is dropped (`guide/Intro.md` → `guide/Intro`);
 * - each segment is NFC-normalised and lower-cased; every run of characters other than
 *   letters, digits, `-`, `_` and `.` becomes one `-`; `-` and `.` are trimmed from both ends
 *   (`My Notes (old)` → `my-notes-old`);
 * - the request's `prefix` is put in front.
 * A segment left empty, more than 20 segments, more than 255 characters or a last segment
 * `raw` make the document invalid (reported, never silently renamed).
 */
export const MAX_SLUG_LENGTH = 255;
export const MAX_SLUG_SEGMENTS = 20;

const SEGMENT = /^[\p{L}\p{M}\p{N}_.-]+$/u;

export function slugifySegment(segment: string): string {
  return segment
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

export function dropExtension(path: string): string {
  return path.replace(/\.[^./]+$/, '');
}

/** Slugifies every segment; undefined when one of them has nothing left. */
export function slugFromPath(path: string): string | undefined {
  const segments = path.split('/').map(slugifySegment);
  if (segments.some((s) => s === '')) return undefined;
  return segments.join('/');
}

export function joinSlug(prefix: string, slug: string): string {
  return prefix ? `${prefix}/${slug}` : slug;
}

/** Why a slug cannot be stored, or undefined when it can. */
export function slugProblem(slug: string): string | undefined {
  const segments = slug.split('/');
  if (slug.length > MAX_SLUG_LENGTH)
    return `gives a path longer than ${MAX_SLUG_LENGTH} characters`;
  if (segments.length > MAX_SLUG_SEGMENTS)
    return `gives a path of more than ${MAX_SLUG_SEGMENTS} segments`;
  if (segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..'))
    return `gives an invalid path "${slug}"`;
  if (segments[segments.length - 1] === 'raw')
    return 'gives a path ending in "raw", which is reserved';
  return undefined;
}

/** The `prefix` field: a slug as the user typed it (slashes around it allowed), normalised. */
export function normalizePrefix(raw: string | undefined): { prefix: string } | { error: string } {
  const trimmed = (raw ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return { prefix: '' };
  const prefix = trimmed.normalize('NFC').toLowerCase();
  const problem = slugProblem(prefix);
  if (problem && !/reserved/.test(problem))
    return { error: `The prefix ${problem.replace(/^gives /, 'is ')}.` };
  return { prefix };
}
