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

/** Where a tree item stands, as the keyboard handler needs it. */
export interface TreeItemState {
  index: number;
  count: number;
  folder: boolean;
  open: boolean;
  hasParent: boolean;
}

export type TreeKeyAction =
  { kind: 'move'; to: number } | { kind: 'toggle' } | { kind: 'parent' } | { kind: 'activate' };

/**
 * The WAI-ARIA tree pattern's keys: Down and Up move through the visible items, Home and End
 * to the ends; Right opens a closed branch, or moves into an open one; Left closes an open
 * branch, or moves to the parent; Enter activates the item (opens a page; a folder without a
 * page toggles).
 */
export function treeKeyAction(key: string, item: TreeItemState): TreeKeyAction | null {
  const { index, count, folder, open } = item;
  const move = (to: number): TreeKeyAction => ({
    kind: 'move',
    to: Math.max(0, Math.min(to, count - 1)),
  });
  if (key === 'ArrowDown') return move(index + 1);
  if (key === 'ArrowUp') return move(index - 1);
  if (key === 'Home') return move(0);
  if (key === 'End') return move(count - 1);
  if (key === 'Enter') return { kind: 'activate' };
  if (key === 'ArrowRight' && folder) return open ? move(index + 1) : { kind: 'toggle' };
  if (key === 'ArrowLeft') {
    if (folder && open) return { kind: 'toggle' };
    if (item.hasParent) return { kind: 'parent' };
  }
  return null;
}
