import { fieldProblem } from '../../common/problems/problem';
import { hasUnsafeCharacters, UNSAFE_TEXT_CODE } from '../../common/text/safe-text';

const MAX_FILENAME_CHARS = 200;

/**
 * A display name safe to store and to echo in Content-Disposition: no path parts, no control,
 * bidi-override or quote characters, no characters Windows refuses, at most 200 characters
 * (the extension is kept when the name is cut).
 */
export function sanitizeFilename(raw: string | undefined, fallback: string): string {
  let name = (raw ?? '').normalize('NFC');
  name = name.split(/[/\\]/).pop() ?? '';
  name = name
    .replace(/[\t\n\r\v\f]/g, ' ')
    // Control characters (C0, DEL, C1) and invisible direction marks that disguise extensions.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/["'`<>:*?|]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[. ]+|[. ]+$/g, '');
  const chars = Array.from(name);
  if (chars.length > MAX_FILENAME_CHARS) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 ? Array.from(name.slice(dot)) : [];
    const keep = ext.length > 0 && ext.length <= 16 ? ext : [];
    name = chars.slice(0, MAX_FILENAME_CHARS - keep.length).join('') + keep.join('');
  }
  return name === '' ? fallback : name;
}

/**
 * An upload's own file name may not hold control, bidi formatting characters or lone
 * surrogates: 422 `file` `invalid_characters` (names from imported archives are cleaned by
 * sanitizeFilename instead, so an import does not fail on one odd name).
 */
export function assertSafeFilename(name: string | undefined): void {
  if (name !== undefined && hasUnsafeCharacters(name)) {
    throw fieldProblem(
      'file',
      UNSAFE_TEXT_CODE,
      'The file name must not contain control characters, bidirectional formatting characters or unpaired surrogates.',
    );
  }
}

/** RFC 6266 Content-Disposition with an ASCII fallback and the RFC 5987 UTF-8 `filename*`. */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const IMAGE_EXTENSIONS: Record<string, string[]> = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg', '.jpe', '.jfif'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
};

/**
 * Makes an image's name end in its real type's extension (`x.html` holding a GIF becomes
 * `x.html.gif`), so "save image as" never produces a file the desktop would open as a page.
 */
export function withImageExtension(filename: string, mimeType: string): string {
  const extensions = IMAGE_EXTENSIONS[mimeType];
  if (!extensions || extensions.some((ext) => filename.toLowerCase().endsWith(ext)))
    return filename;
  return sanitizeFilename(`${filename}${extensions[0]}`, filename);
}
