/** Archive paths of pages and media (POSIX, relative to the archive root). */

export function pageArchivePath(slug: string): string {
  return `${slug}.md`;
}

/**
 * `media/<id>/<file name>`: the id keeps names unique, the name is the stored one (already
 * safe: the media service drops path parts, controls, quotes and characters Windows refuses),
 * so an import stores the file under the same name. A name a Markdown importer would take for
 * a page (`.md`, `.markdown`) gets `.bin` appended; the manifest has the real name.
 */
export function mediaArchivePath(id: string, filename: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  let name = filename.replace(/[/\\\u0000-\u001f\u007f]/g, '_').replace(/^\.+/, '');
  if (name === '') name = 'file';
  if (/\.(md|markdown)$/i.test(name)) name = `${name}.bin`;
  return `media/${id}/${name}`;
}

/**
 * A file name safe inside a ZIP and in a Markdown link without escaping: letters, digits, `-`,
 * `_` and `.` (single-page ZIPs, whose `images/` names are made readable rather than exact).
 */
export function archiveFileName(filename: string, fallback: string): string {
  let name = filename
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '_')
    .replace(/^[._]+/, '');
  if (name === '' || name === '.' || name === '..') name = fallback;
  if (/\.(md|markdown)$/i.test(name)) name = `${name}.bin`;
  return name;
}

/**
 * A relative path as a Markdown link or image target: the characters Markdown or a URL would
 * read differently (spaces, `%`, `#`, `?`, brackets, parentheses, quotes, `<`, `>`, `\`) are
 * percent-encoded; importers decode them back to the file's path.
 */
export function markdownLinkTarget(path: string): string {
  return path.replace(/[\s%#?()[\]<>\\"'`]/gu, (c) =>
    [...Buffer.from(c, 'utf8')]
      .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}
