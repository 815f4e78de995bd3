/** Every export answer is private to the caller and must not be stored by any cache. */
export const NO_STORE = 'private, no-store';

/**
 * A safe file name for Content-Disposition: letters, digits, `-`, `_` and `.` kept (any
 * script), everything else `_`, no leading dots, at most 120 characters before the extension.
 */
export function safeFileStem(raw: string, fallback = 'page'): string {
  const stem = raw
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '_')
    .replace(/^[._]+|[._]+$/g, '');
  const chars = Array.from(stem).slice(0, 120).join('');
  return chars === '' ? fallback : chars;
}

/** RFC 6266 Content-Disposition: an ASCII fallback `filename` and the RFC 5987 UTF-8 `filename*`. */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The last segment of a slug as a file stem (`guide/intro` → `intro`). */
export function slugFileStem(slug: string): string {
  return safeFileStem(slug.split('/').pop() ?? slug);
}
