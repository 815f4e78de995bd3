import { linkOccurrences } from './link-occurrences';

describe('linkOccurrences', () => {
  it('finds internal links and images with their 1-based lines', () => {
    const markdown = [
      'Intro with [a link](other) and [external](https://example.com).', // 1
      '', // 2
      'A paragraph over', // 3
      'two lines with [here](/docs/x#part)', // 4
      'and ![pic](images/pic.png) on the third.', // 5
      '', // 6
      '- item ![stored](/api/images/0b1e7c7a-0000-4000-8000-000000000001/content)', // 7
      '', // 8
      '| a | b |', // 9
      '|---|---|', // 10
      '| [cell](../up) | x |', // 11
      '', // 12
      '```', // 13
      '[not a link](code)', // 14
      '```', // 15
      '[anchor](#top) [var]({{base}}/x) ![remote](https://e.x/p.png)', // 16
      '[ref link][r]', // 17
      '', // 18
      '[r]: /docs/ref', // 19
    ].join('\n');
    expect(linkOccurrences(markdown, 'docs/guide')).toEqual([
      { target: 'other', line: 1, kind: 'link', slug: 'docs/other' },
      { target: '/docs/x#part', line: 4, kind: 'link', slug: 'docs/x' },
      { target: 'images/pic.png', line: 5, kind: 'image' },
      {
        target: '/api/images/0b1e7c7a-0000-4000-8000-000000000001/content',
        line: 7,
        kind: 'image',
        mediaId: '0b1e7c7a-0000-4000-8000-000000000001',
      },
      { target: '../up', line: 11, kind: 'link', slug: 'up' },
      { target: '/docs/ref', line: 17, kind: 'link', slug: 'docs/ref' },
    ]);
  });

  it('has nothing to say about Markdown without links', () => {
    expect(linkOccurrences('# Title\n\nJust text.', 'a')).toEqual([]);
  });
});
