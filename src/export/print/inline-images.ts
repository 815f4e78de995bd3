import { mediaReferenceAt } from '../../common/text/media-urls';

const IMG = /<img\b[^>]*>/gi;
const SRC = /\ssrc="([^"]*)"/i;
const ALT = /\salt="([^"]*)"/i;

/** Ids of the stored images the rendered HTML shows, each once. */
export function storedImageIds(html: string): string[] {
  const ids = new Set<string>();
  for (const tag of html.match(IMG) ?? []) {
    const id = storedImageId(SRC.exec(tag)?.[1] ?? '');
    if (id) ids.add(id);
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
    const id = storedImageId(SRC.exec(tag)?.[1] ?? '');
    const uri = id ? dataUris.get(id) : undefined;
    if (uri) return tag.replace(SRC, () => ` src="${uri}"`);
    const alt = ALT.exec(tag)?.[1] ?? '';
    const label = alt === '' ? 'image' : alt;
    // The alt text is already escaped by the sanitiser.
    return `<span class="kb-missing-image">[${label}]</span>`;
  });
}

/** The id of the stored image a `src` is the URL of (media-urls.ts), or null. */
function storedImageId(src: string): string | null {
  const ref = mediaReferenceAt(src);
  return ref?.kind === 'image' ? ref.id : null;
}
