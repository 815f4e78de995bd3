import { MarkdownRenderer } from './markdown-renderer';

describe('MarkdownRenderer', () => {
  const renderer = new MarkdownRenderer();

  it('renders GFM tables, task lists, heading anchors and fenced code classes', () => {
    const html = renderer.render(
      [
        '# Title',
        '',
        '| a | b |',
        '|:--|--:|',
        '| 1 | 2 |',
        '',
        '- [x] done',
        '- [ ] open',
        '',
        '```ts',
        'const x = 1;',
        '```',
      ].join('\n'),
    );
    expect(html).toContain('<h1 id="title">Title</h1>');
    expect(html).toContain('<table>');
    expect(html).toContain('<th style="text-align:left">a</th>');
    expect(html).toContain('<ul class="contains-task-list">');
    expect(html).toContain(
      '<li class="task-list-item"><input class="task-list-item-checkbox" checked disabled type="checkbox" /> done</li>',
    );
    expect(html).toContain('<pre><code class="language-ts">const x = 1;\n</code></pre>');
  });

  it('keeps safe raw HTML (tables from Confluence) and resolves internal links', () => {
    const html = renderer.render(
      '<table><tr><td colspan="2">x</td></tr></table>\n\n[n](next)',
      {},
      { baseSlug: 'a/b' },
    );
    expect(html).toContain('<table><tr><td colspan="2">x</td></tr></table>');
    expect(html).toContain('<a href="/a/next">n</a>');
  });
});
