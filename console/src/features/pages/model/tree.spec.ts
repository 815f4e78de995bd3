import {
  ancestorSlugs,
  isOpen,
  nodeLabel,
  toggle,
  treeKeyAction,
  type TreeItemState,
} from './tree';

describe('page tree model', () => {
  it('lists the ancestors of a slug, outermost first', () => {
    expect(ancestorSlugs('a/b/c')).toEqual(['a', 'a/b']);
    expect(ancestorSlugs('a')).toEqual([]);
    expect(ancestorSlugs('')).toEqual([]);
  });

  it('opens the branches above the current page until the reader toggles them', () => {
    expect(isOpen('a', 'a/b/c', {})).toBe(true);
    expect(isOpen('a/b', 'a/b/c', {})).toBe(true);
    expect(isOpen('a/b/c', 'a/b/c', {})).toBe(false);
    expect(isOpen('x', 'a/b/c', {})).toBe(false);
    const closed = toggle('a', 'a/b/c', {});
    expect(isOpen('a', 'a/b/c', closed)).toBe(false);
    expect(isOpen('a', 'a/b/c', toggle('a', 'a/b/c', closed))).toBe(true);
    expect(isOpen('x', 'a', toggle('x', 'a', {}))).toBe(true);
  });

  it('labels folders without a page by their segment', () => {
    expect(nodeLabel({ name: 'ops', title: null })).toBe('ops');
    expect(nodeLabel({ name: 'ops', title: 'Operations' })).toBe('Operations');
  });
});

describe('tree keyboard', () => {
  const at = (index: number, more: Partial<TreeItemState> = {}): TreeItemState => ({
    index,
    count: 5,
    folder: false,
    open: false,
    hasParent: false,
    ...more,
  });

  it('moves with Up, Down, Home and End, and stops at the ends', () => {
    expect(treeKeyAction('ArrowDown', at(1))).toEqual({ kind: 'move', to: 2 });
    expect(treeKeyAction('ArrowDown', at(4))).toEqual({ kind: 'move', to: 4 });
    expect(treeKeyAction('ArrowUp', at(0))).toEqual({ kind: 'move', to: 0 });
    expect(treeKeyAction('Home', at(3))).toEqual({ kind: 'move', to: 0 });
    expect(treeKeyAction('End', at(0))).toEqual({ kind: 'move', to: 4 });
  });

  it('opens with Right then goes in; closes with Left then goes to the parent', () => {
    expect(treeKeyAction('ArrowRight', at(1, { folder: true }))).toEqual({ kind: 'toggle' });
    expect(treeKeyAction('ArrowRight', at(1, { folder: true, open: true }))).toEqual({
      kind: 'move',
      to: 2,
    });
    expect(treeKeyAction('ArrowRight', at(1))).toBeNull();
    expect(treeKeyAction('ArrowLeft', at(1, { folder: true, open: true }))).toEqual({
      kind: 'toggle',
    });
    expect(treeKeyAction('ArrowLeft', at(2, { hasParent: true }))).toEqual({ kind: 'parent' });
    expect(treeKeyAction('ArrowLeft', at(0))).toBeNull();
  });

  it('activates the item with Enter, and ignores other keys', () => {
    expect(treeKeyAction('Enter', at(0))).toEqual({ kind: 'activate' });
    expect(treeKeyAction('x', at(0))).toBeNull();
  });
});
