/**
 * Path → slug mapping of the importer (documented in docs/import.md):
 * - the file extension of the last segment is dropped (`guide/Intro.md` → `guide/Intro`);
 * - each segment is decoded as a URL path segment would be: `+` is a space and `%XX`
 *   escapes are decoded (`Basic+tutorial+1%3A+Hello+world%21` → `Basic tutorial 1: Hello
 *   world!`); a malformed escape leaves the segment as written;
 * - each segment is NFC-normalised and lower-cased; every run of characters other than
 *   letters, digits, `-`, `_` and `.` becomes one `-`; `-` and `.` are trimmed from both ends
 *   (`My Notes (old)` → `my-notes-old`);
 * - the request's `prefix` is put in front.
 * A segment left empty, more than 20 segments, more than 255 characters or a last segment
 * `raw` make the document invalid (reported, never silently renamed).
 */
import {
  MAX_SLUG_LENGTH,
  MAX_SLUG_SEGMENTS,
  normaliseSlug,
  RESERVED_LAST_SEGMENT,
  slugProblems,
} from '../pages/public-api';

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

/** A file-name segment as a browser reads it in a URL: `+` and `%XX` decoded. */
export function decodeSegment(segment: string): string {
  if (!/[%+]/.test(segment)) return segment;
  const spaced = segment.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Slugifies every (decoded) segment; undefined when one of them has nothing left. */
export function slugFromPath(path: string): string | undefined {
  const segments = path.split('/').map((segment) => slugifySegment(decodeSegment(segment)));
  if (segments.some((s) => s === '')) return undefined;
  return segments.join('/');
}

/** Every segment slugified as written, without decoding (what older tools made of `%3A`). */
export function undecodedSlug(path: string): string {
  return path.split('/').map(slugifySegment).join('/');
}

/**
 * The slugs a title leaves when a tool percent-encoded it into a file name and another
 * slugified that name without decoding it (`Hello world!` → `Hello+world%21` →
 * `hello-world-21`), for Java's URLEncoder (Confluence) and for encodeURIComponent.
 */
export function encodedTitleResidues(title: string): string[] {
  const java = [...new TextEncoder().encode(title)]
    .map((byte) =>
      byte === 0x20
        ? '+'
        : /[A-Za-z0-9.*_-]/.test(String.fromCharCode(byte)) && byte < 0x80
          ? String.fromCharCode(byte)
          : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
  return [...new Set([slugifySegment(java), slugifySegment(encodeURIComponent(title))])];
}

/**
 * The last segment of a file's slug: a name that is exactly the encoded-then-slugified form
 * of the document's title (`basic-tutorial-1-3a-hello-world-21.md` for "Basic tutorial 1:
 * Hello world!") takes the slug of the title instead (`basic-tutorial-1-hello-world`). Any
 * other name keeps its own slug: the rule only undoes that one mangling.
 */
export function repairEncodedSlug(slug: string, title: string): string {
  const at = slug.lastIndexOf('/');
  const last = slug.slice(at + 1);
  const readable = slugifySegment(title);
  if (readable === '' || readable === last) return slug;
  if (!encodedTitleResidues(title).includes(last)) return slug;
  return `${slug.slice(0, at + 1)}${readable}`;
}

export function joinSlug(prefix: string, slug: string): string {
  return prefix ? `${prefix}/${slug}` : slug;
}

/**
 * Why a slug cannot be stored, or undefined when it can: the pages module's slug rule
 * (pages/model/slug.ts, lengths in code points), worded for the import report.
 */
export function slugProblem(slug: string): string | undefined {
  const codes = slugProblems(slug).map((p) => p.code);
  if (codes.includes('slug_too_long'))
    return `gives a path longer than ${MAX_SLUG_LENGTH} characters`;
  if (codes.includes('slug_too_many_segments'))
    return `gives a path of more than ${MAX_SLUG_SEGMENTS} segments`;
  if (codes.some((code) => code !== 'slug_reserved')) return `gives an invalid path "${slug}"`;
  if (codes.includes('slug_reserved'))
    return `gives a path ending in "${RESERVED_LAST_SEGMENT}", which is reserved`;
  return undefined;
}

/** The `prefix` field: a slug as the user typed it (slashes around it allowed), normalised. */
export function normalizePrefix(raw: string | undefined): { prefix: string } | { error: string } {
  const prefix = normaliseSlug(raw ?? '');
  if (prefix === '') return { prefix: '' };
  const problem = slugProblem(prefix);
  if (problem && !/reserved/.test(problem))
    return { error: `The prefix ${problem.replace(/^gives /, 'is ')}.` };
  return { prefix };
}
