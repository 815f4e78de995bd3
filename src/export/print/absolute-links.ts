import { resolveInternalHref } from '../../pages/public-api';

/** Where the console shows a page: `<base>/wiki/<slug>`. */
export const CONSOLE_PAGE_PATH = '/wiki/';

const A_TAG = /<a\b[^>]*>/gi;
const HREF = /\shref="([^"]*)"/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function decodeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function encodeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** The console URL of a page. */
export function consolePageUrl(baseUrl: string, slug: string, fragment = ''): string {
  return baseUrl + CONSOLE_PAGE_PATH + slug.split('/').map(encodeURIComponent).join('/') + fragment;
}

/** Where one href of the page `pageSlug` leads when read outside kb (in a PDF, a download). */
function absoluteHref(href: string, baseUrl: string, pageSlug: string): string {
  // In-document anchors stay: Chromium turns them into links inside the PDF.
  if (href === '' || href.startsWith('#') || SCHEME.test(href) || href.startsWith('//'))
    return href;
  if (href.startsWith('/')) {
    // A page link (the renderer writes them `/<slug>`) opens the page in the console; any other
    // path of kb (an attachment's download URL, an API route) is kept as it is, made absolute.
    const target = resolveInternalHref(href, null);
    return target ? consolePageUrl(baseUrl, target.slug, target.fragment) : baseUrl + href;
  }
  // A relative link the renderer could not resolve to a page: as a browser would from the
  // page's console URL.
  return new URL(href, consolePageUrl(baseUrl, pageSlug)).toString();
}

/**
 * Makes every link of the rendered (sanitised) page absolute, so it still works in a PDF or a
 * saved print: pages to their console URL on kb (`<base>/wiki/<slug>`), attachments and other
 * kb paths to `<base><path>`. Only `<a href>` is touched: images stay inlined `data:` URIs and
 * nothing else in the document names kb's address. The sanitiser writes attributes
 * double-quoted and escaped, which the patterns rely on.
 */
export function absoluteLinks(html: string, baseUrl: string, pageSlug: string): string {
  return html.replace(A_TAG, (tag) => {
    const href = HREF.exec(tag)?.[1];
    if (href === undefined) return tag;
    const absolute = absoluteHref(decodeAttribute(href), baseUrl, pageSlug);
    return tag.replace(HREF, () => ` href="${encodeAttribute(absolute)}"`);
  });
}
