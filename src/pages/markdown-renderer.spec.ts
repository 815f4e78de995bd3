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

  it('renderPage gives the same HTML and links as render + extractLinks, with or without variables', () => {
    for (const [markdown, variables] of [
      ['# A\n\n[b](../b) [c](/c#x) {{unknown}}', {}],
      ['Hi {{who}} [d](d) and [{{who}}](/e)', { who: '**you**' }],
    ] as [string, Record<string, string>][]) {
      expect(renderer.renderPage(markdown, variables, 'x/y')).toEqual({
        html: renderer.render(markdown, variables, { baseSlug: 'x/y' }),
        links: renderer.extractLinks(markdown, 'x/y'),
      });
    }
  });
});
