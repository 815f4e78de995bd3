import { safeDecode } from './links';
import { normaliseSlug } from '../model/slug';

/** The class of a link to a page the reader cannot open (missing, or not visible to them). */
export const MISSING_LINK_CLASS = 'kb-missing';

/** The opening tag of an internal link as the renderer writes it (sanitised: href only). */
const INTERNAL_ANCHOR = /<a href="\/([^"#?]*)((?:[#?][^"]*)?)"/g;

/**
 * Marks the links of rendered page HTML whose target slug is in `missing` with
 * `class="kb-missing"`. The stored HTML is shared by every reader; which targets are missing
 * depends on the reader (visibility), so this runs per read over the page's link list
 * (page_links) filtered by visibility — a link to a missing page and one to a page the reader
 * may not see get the same mark.
 */
export function markMissingLinks(html: string, missing: ReadonlySet<string>): string {
  if (missing.size === 0) return html;
  return html.replace(INTERNAL_ANCHOR, (tag: string, path: string) => {
    const slug = normaliseSlug(safeDecode(path));
    return missing.has(slug) ? `${tag} class="${MISSING_LINK_CLASS}"` : tag;
  });
}

/** Whether rendered HTML holds any internal link (a page without one has nothing to mark). */
export function linksPages(html: string): boolean {
  return html.includes('<a href="/');
}
