import { useState } from 'react';
import { NavLink } from 'react-router';
import type { TreeNode } from '../../../api/types';
import { paths } from '../../../lib/slugs';
import { useTreeLevel } from '../api/pages';
import { isOpen, nodeLabel, toggle, type Toggles } from '../model/tree';

interface LevelProps {
  parent?: string;
  current: string;
  toggles: Toggles;
  onToggle: (slug: string) => void;
  depth: number;
}

function TreeLevel({ parent, current, toggles, onToggle, depth }: LevelProps) {
  const level = useTreeLevel(parent);
  if (level.isPending) return <p className="tree__status">Loading…</p>;
  if (level.isError) return <p className="tree__status">The pages could not be loaded.</p>;
  if (!level.items.length && depth === 0) return <p className="tree__status">No pages yet.</p>;
  return (
    <ul className="tree__level">
      {level.items.map((node) => (
        <TreeItem
          key={node.slug}
          node={node}
          current={current}
          toggles={toggles}
          onToggle={onToggle}
          depth={depth}
        />
      ))}
      {level.hasNextPage && (
        <li>
          <button
            type="button"
            className="tree__more"
            onClick={() => level.fetchNextPage()}
            disabled={level.isFetchingNextPage}
          >
            {level.isFetchingNextPage ? 'Loading…' : 'More pages'}
          </button>
        </li>
      )}
    </ul>
  );
}

function TreeItem({ node, current, toggles, onToggle, depth }: { node: TreeNode } & LevelProps) {
  const open = node.hasChildren && isOpen(node.slug, current, toggles);
  const label = nodeLabel(node);
  return (
    <li className="tree__item">
      <div className="tree__row" style={{ paddingInlineStart: `${depth * 0.9}rem` }}>
        {node.hasChildren ? (
          <button
            type="button"
            className="tree__toggle"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${label}`}
            onClick={() => onToggle(node.slug)}
          >
            <span aria-hidden="true" className={`chevron ${open ? 'chevron--open' : ''}`} />
          </button>
        ) : (
          <span className="tree__spacer" aria-hidden="true" />
        )}
        {node.title !== null ? (
          <NavLink to={paths.page(node.slug)} className="tree__link" end>
            {node.icon && (
              <span className="tree__icon" aria-hidden="true">
                {node.icon}
              </span>
            )}
            {label}
          </NavLink>
        ) : (
          <span className="tree__folder">{label}</span>
        )}
      </div>
      {open && (
        <TreeLevel
          parent={node.slug}
          current={current}
          toggles={toggles}
          onToggle={onToggle}
          depth={depth + 1}
        />
      )}
    </li>
  );
}

/** The page tree built from the slug hierarchy; each branch loads its level when opened. */
export function PageTree({ current }: { current: string }) {
  const [toggles, setToggles] = useState<Toggles>({});
  return (
    <nav className="tree" aria-label="Pages">
      <TreeLevel
        current={current}
        toggles={toggles}
        onToggle={(slug) => setToggles((t) => toggle(slug, current, t))}
        depth={0}
      />
    </nav>
  );
}
