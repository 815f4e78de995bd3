import { ancestorSlugs, isOpen, nodeLabel, toggle } from './tree';

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
