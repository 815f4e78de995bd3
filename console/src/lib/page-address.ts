/** The page API's slug rule (src/pages/model/slug.ts): segments of letters, marks, digits, `-_.`. */
const SEGMENT = /^[\p{L}\p{M}\p{N}_.-]+$/u;
const MAX_SEGMENTS = 20;
const MAX_LENGTH = 255;

/**
 * The slug an address outside the console's screens could be (`/handbook/index`,
 * `/Team/%C3%9Cber-uns/`), normalised as the page API stores slugs (NFC, lowercase), or null
 * when no page could live there (`/a//b`, `/x/raw`, `/a%20b`).
 */
export function slugOfAddress(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const slug = decoded
    .replace(/^\/+|\/+$/g, '')
    .normalize('NFC')
    .toLowerCase()
    .normalize('NFC');
  if (!slug || [...slug].length > MAX_LENGTH) return null;
  const segments = slug.split('/');
  if (segments.length > MAX_SEGMENTS || segments[segments.length - 1] === 'raw') return null;
  const valid = segments.every((s) => s !== '.' && s !== '..' && SEGMENT.test(s));
  return valid ? slug : null;
}

/** Words to search for when an address leads nowhere: its last segment, dashes as spaces. */
export function searchWordsOf(slug: string): string {
  const last = slug.split('/').pop() ?? '';
  return last.replace(/[-_.]+/g, ' ').trim();
}
