import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Link } from 'react-router';
import type { TreeNode } from '../../../api/types';
import { paths } from '../../../lib/slugs';
import { canEdit, useMe } from '../../../api/me';
import { useTreeLevel } from '../../../api/pages';
import { isOpen, nodeLabel, toggle, treeKeyAction, type Toggles } from '../model/tree';

interface TreeContext {
  current: string;
  toggles: Toggles;
  onToggle: (slug: string) => void;
  /** The one item reachable with Tab (roving tabindex); the others with the arrow keys. */
  active: string | null;
  editor: boolean;
}

interface LevelProps extends TreeContext {
  parent?: string;
  depth: number;
}

const itemProps = (key: string, ctx: TreeContext, depth: number, parent: string | undefined) => ({
  role: 'treeitem',
  'aria-level': depth + 1,
  'data-key': key,
  'data-parent': parent ?? '',
  tabIndex: key === ctx.active ? 0 : -1,
});

function TreeLevel({ parent, depth, ...ctx }: LevelProps) {
  const level = useTreeLevel(parent);
  // The top level's status is said outside the tree (PageTree); a branch shows its items.
  if (level.isPending || level.isError) return null;
  const more = `more:${parent ?? ''}`;
  const newHere = `new:${parent ?? ''}`;
  return (
    <>
      {level.items.map((node) => (
        <TreeItem key={node.slug} node={node} depth={depth} parent={parent} {...ctx} />
      ))}
      {level.hasNextPage && (
        <li
          {...itemProps(more, ctx, depth, parent)}
          className="tree__more"
          aria-disabled={level.isFetchingNextPage || undefined}
          onClick={() => level.fetchNextPage()}
        >
          {level.isFetchingNextPage ? 'Loading…' : 'More pages'}
        </li>
      )}
      {parent !== undefined && ctx.editor && (
        <li role="none">
          <Link
            {...itemProps(newHere, ctx, depth, parent)}
            to={paths.newPage(parent)}
            className="tree__row tree__new"
            style={{ paddingInlineStart: `${depth * 0.9 + 1.6}rem` }}
          >
            New page here
          </Link>
        </li>
      )}
    </>
  );
}

function TreeItem({
  node,
  depth,
  parent,
  ...ctx
}: { node: TreeNode; depth: number; parent?: string } & TreeContext) {
  const open = node.hasChildren && isOpen(node.slug, ctx.current, ctx.toggles);
  const label = nodeLabel(node);
  const groupId = `tree-group-${node.slug}`;
  const common = {
    ...itemProps(node.slug, ctx, depth, parent),
    'aria-expanded': node.hasChildren ? open : undefined,
    'aria-owns': open ? groupId : undefined,
    'data-folder': node.hasChildren ? 'true' : undefined,
  };
  const chevron = node.hasChildren ? (
    // The pointer's way to open a branch; keyboards use the arrow keys on the item.
    <span
      className="tree__toggle"
      aria-hidden="true"
      onClick={(e: MouseEvent) => {
        e.preventDefault();
        e.stopPropagation();
        ctx.onToggle(node.slug);
      }}
    >
      <span className={`chevron ${open ? 'chevron--open' : ''}`} />
    </span>
  ) : (
    <span className="tree__spacer" aria-hidden="true" />
  );
  const isCurrent = node.slug === ctx.current;
  return (
    <li role="none" className="tree__item">
      {node.title !== null ? (
        <Link
          {...common}
          to={paths.page(node.slug)}
          className={`tree__row tree__link${isCurrent ? ' active' : ''}`}
          aria-current={isCurrent ? 'page' : undefined}
          style={{ paddingInlineStart: `${depth * 0.9}rem` }}
        >
          {chevron}
          {node.icon && (
            <span className="tree__icon" aria-hidden="true">
              {node.icon}
            </span>
          )}
          <span className="tree__label">{label}</span>
        </Link>
      ) : (
        <div
          {...common}
          className="tree__row tree__folder"
          onClick={() => ctx.onToggle(node.slug)}
          style={{ paddingInlineStart: `${depth * 0.9}rem` }}
        >
          {chevron}
          <span className="tree__label">{label}</span>
        </div>
      )}
      {open && (
        <ul role="group" id={groupId} className="tree__level">
          <TreeLevel parent={node.slug} depth={depth + 1} {...ctx} />
        </ul>
      )}
    </li>
  );
}

/** The rendered tree items in order (closed branches render no items). */
const itemsOf = (tree: HTMLElement) =>
  Array.from(tree.querySelectorAll<HTMLElement>('[role="treeitem"]'));

/**
 * The page tree built from the slug hierarchy, an ARIA tree: every folder and page is a
 * `treeitem` (branches `aria-expanded`), one of them in the Tab order; Up and Down move, Right
 * opens a branch (then goes into it), Left closes it (then goes to its parent), Home and End,
 * Enter opens a page or toggles a folder. Each branch loads its level when opened; editors
 * find "New page here" at the end of every open branch.
 */
export function PageTree({ current }: { current: string }) {
  const [toggles, setToggles] = useState<Toggles>({});
  const [focused, setFocused] = useState<string | null>(null);
  const tree = useRef<HTMLUListElement>(null);
  const me = useMe();
  const onToggle = (slug: string) => setToggles((t) => toggle(slug, current, t));

  // The Tab stop: the item last focused, else the current page, else the first item.
  const [active, setActive] = useState<string | null>(null);
  // After every render: a branch that loaded or closed changes which items exist. It sets state
  // only when the Tab stop moves, so it settles at once.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => {
    const root = tree.current;
    if (!root) return;
    const keys = itemsOf(root).map((el) => el.dataset.key!);
    const next = [focused, current].find((k) => k && keys.includes(k)) ?? keys[0] ?? null;
    if (next !== active) setActive(next);
  });

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const items = itemsOf(event.currentTarget);
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const item = items[at];
    const action = treeKeyAction(event.key, {
      index: at,
      count: items.length,
      folder: item.dataset.folder === 'true',
      open: item.getAttribute('aria-expanded') === 'true',
      hasParent: item.dataset.parent !== '',
    });
    if (!action) return;
    event.preventDefault();
    const key = item.dataset.key!;
    const focus = (el: HTMLElement | undefined) => el?.focus();
    switch (action.kind) {
      case 'move':
        focus(items[action.to]);
        break;
      case 'toggle':
        onToggle(key);
        break;
      case 'parent':
        focus(items.find((el) => el.dataset.key === item.dataset.parent));
        break;
      case 'activate':
        // A page's link follows itself; a folder without a page toggles on click.
        item.click();
        break;
    }
  };

  const root = useTreeLevel(undefined);
  const status = root.isPending
    ? 'Loading…'
    : root.isError
      ? 'The pages could not be loaded.'
      : root.items.length === 0
        ? 'No pages yet.'
        : null;
  return (
    <nav className="tree" aria-label="Pages">
      {status && <p className="tree__status">{status}</p>}
      <ul
        hidden={status !== null}
        ref={tree}
        role="tree"
        aria-label="Pages"
        className="tree__level"
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          const key = (e.target as HTMLElement).dataset.key;
          if (key) setFocused(key);
        }}
      >
        <TreeLevel
          depth={0}
          current={current}
          toggles={toggles}
          onToggle={onToggle}
          active={active}
          editor={me.data !== undefined && canEdit(me.data)}
        />
      </ul>
    </nav>
  );
}
