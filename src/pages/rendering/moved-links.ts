import { internalHref, resolveInternalHref } from './links';
import { rewriteReferences } from './references';

/**
 * A page's Markdown with its links to moved pages pointing at their new slugs. `before` and
 * `after` are the page's own slug before and after the move (the same unless it moved too):
 * a link is left as written when it already resolves, from `after`, to where its target went
 * (a relative link between two pages of a moved folder); otherwise it becomes the absolute
 * path of the new slug, keeping its `#fragment`. Targets built from variables are left alone.
 */
export function rewriteMovedLinks(
  markdown: string,
  before: string,
  after: string,
  movedTo: (slug: string) => string | undefined,
): string {
  return rewriteReferences(markdown, (target, kind) => {
    if (kind !== 'link' || target.includes('{{')) return undefined;
    const old = resolveInternalHref(target, before);
    if (!old) return undefined;
    const expected = movedTo(old.slug) ?? old.slug;
    if (resolveInternalHref(target, after)?.slug === expected) return undefined;
    return internalHref({ slug: expected, fragment: old.fragment });
  });
}
