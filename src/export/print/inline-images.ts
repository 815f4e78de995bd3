const IMG = /<img\b[^>]*>/gi;
const SRC = /\ssrc="([^"]*)"/i;
const ALT = /\salt="([^"]*)"/i;
const STORED_IMAGE = /^\/api\/images\/([0-9a-fA-F-]{36})\/content$/;

/** Ids of the stored images the rendered HTML shows, each once. */
export function storedImageIds(html: string): string[] {
  const ids = new Set<string>();
  for (const tag of html.match(IMG) ?? []) {
    const src = SRC.exec(tag)?.[1];
    const match = src ? STORED_IMAGE.exec(src) : null;
    if (match) ids.add(match[1].toLowerCase());
  }
  return [...ids];
}

/**
 * Replaces every `<img>` of the sanitised HTML: a stored image with its `data:` URI, anything
 * else (remote, missing, unreadable) with its alt text, so the document loads nothing.
 * The sanitiser writes attributes double-quoted and escaped, which the patterns rely on.
 */
export function inlineImages(html: string, dataUris: Map<string, string>): string {
  return html.replace(IMG, (tag) => {
    const src = SRC.exec(tag)?.[1] ?? '';
    const match = STORED_IMAGE.exec(src);
    const uri = match ? dataUris.get(match[1].toLowerCase()) : undefined;
    if (uri) return tag.replace(SRC, () => ` src="${uri}"`);
    const alt = ALT.exec(tag)?.[1] ?? '';
    const label = alt === '' ? 'image' : alt;
    // The alt text is already escaped by the sanitiser.
    return `<span class="kb-missing-image">[${label}]</span>`;
  });
}
