import { allTags, inSubtree, pagesInSubtree, pagesWithTag } from './selection';

const pages = [
  { slug: 'handbook', title: 'Handbook', tags: ['ops'] },
  { slug: 'handbook/setup', title: 'Setup', tags: ['Ops', 'install'] },
  { slug: 'handbookish', title: 'Not below', tags: [] },
  { slug: 'guides/intro', title: 'Intro', tags: ['install'] },
];

describe('archive selection', () => {
  it('takes a subtree: the page and the pages below it, not a sibling with the same prefix', () => {
    expect(pagesInSubtree(pages, 'handbook').map((p) => p.slug)).toEqual([
      'handbook',
      'handbook/setup',
    ]);
    expect(pagesInSubtree(pages, '/Handbook/').map((p) => p.slug)).toEqual([
      'handbook',
      'handbook/setup',
    ]);
    expect(inSubtree('guides/intro', '')).toBe(true);
  });

  it('takes the pages with a tag, whatever its case, and nothing for no tag', () => {
    expect(pagesWithTag(pages, 'ops').map((p) => p.slug)).toEqual(['handbook', 'handbook/setup']);
    expect(pagesWithTag(pages, ' ')).toEqual([]);
  });

  it('lists each tag once, by name', () => {
    expect(allTags(pages)).toEqual(['install', 'ops', 'Ops']);
  });
});
