/** What a node of the graph (every visible page) offers the selection. */
export interface SelectablePage {
  slug: string;
  title: string;
  tags: string[];
}

/** The page and everything below it: `handbook` takes `handbook` and `handbook/x/y`. */
export function inSubtree(slug: string, root: string): boolean {
  const prefix = root
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .toLowerCase();
  if (!prefix) return true;
  const s = slug.toLowerCase();
  return s === prefix || s.startsWith(`${prefix}/`);
}

export function pagesInSubtree<P extends SelectablePage>(pages: P[], root: string): P[] {
  return pages.filter((p) => inSubtree(p.slug, root));
}

export function pagesWithTag<P extends SelectablePage>(pages: P[], tag: string): P[] {
  const wanted = tag.trim().toLowerCase();
  return wanted ? pages.filter((p) => p.tags.some((t) => t.toLowerCase() === wanted)) : [];
}

/** Every tag of the pages, each once, by name. */
export function allTags(pages: SelectablePage[]): string[] {
  return [...new Set(pages.flatMap((p) => p.tags))].sort((a, b) => a.localeCompare(b));
}
