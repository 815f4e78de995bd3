/** Archive paths of pages and media (POSIX, relative to the archive root). */

export function pageArchivePath(slug: string): string {
  return `${slug}.md`;
}

/**
 * `media/<id>/<name>`: the id keeps names unique; the name stays readable. A name a Markdown
 * importer would take for a page (`.md`, `.markdown`) gets `.bin` appended; the manifest has
 * the real name.
 */
export function mediaArchivePath(id: string, filename: string): string {
  return `media/${id}/${archiveFileName(filename, 'file')}`;
}

/** A file name safe inside a ZIP and in a Markdown link: no separators, spaces or controls. */
export function archiveFileName(filename: string, fallback: string): string {
  let name = filename
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '_')
    .replace(/^[._]+/, '');
  if (name === '' || name === '.' || name === '..') name = fallback;
  if (/\.(md|markdown)$/i.test(name)) name = `${name}.bin`;
  return name;
}
