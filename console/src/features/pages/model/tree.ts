/**
 * Which branches of the page tree are open. The branches leading to the page being read open
 * by themselves, so the tree shows where the reader is; the reader's own toggles win.
 */
export function ancestorSlugs(slug: string): string[] {
  const parts = slug.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

export type Toggles = Record<string, boolean>;

export function isOpen(slug: string, current: string, toggles: Toggles): boolean {
  if (slug in toggles) return toggles[slug];
  return ancestorSlugs(current).includes(slug);
}

export function toggle(slug: string, current: string, toggles: Toggles): Toggles {
  return { ...toggles, [slug]: !isOpen(slug, current, toggles) };
}

/** A tree node's label: the page title, else the slug segment (a folder without its own page). */
export function nodeLabel(node: { name: string; title: string | null }): string {
  return node.title ?? node.name;
}
