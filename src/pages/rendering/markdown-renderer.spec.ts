import { MarkdownRenderer } from './markdown-renderer';

describe('MarkdownRenderer', () => {
  const renderer = new MarkdownRenderer();

  it('renders resolved variable values, escaped by the sanitiser', () => {
    const html = renderer.render('Hello {{who}} and {{unknown}}', {
      who: '<script>alert(1)</script>**World**',
    });
    expect(html).toBe('<p>Hello <strong>World</strong> and {{unknown}}</p>\n');
  });

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
    expect(html).toContain(
      '<pre><code class="language-ts"><span class="hljs-keyword">const</span> x = <span class="hljs-number">1</span>;\n</code></pre>',
    );
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

describe('MarkdownRenderer.extractLinks (no render) agrees with the links a render finds', () => {
  const renderer = new MarkdownRenderer();
  const rendered = (markdown: string, base: string) =>
    renderer.renderPage(markdown, {}, base).links;

  const CASES = [
    '[a](/x) and [b](../up) [c](same#frag) [d](/q?x=1) [e](#only) [f](https://ext)',
    '[ref][r] [S] [col][]\n\n[r]: /by-ref\n[S]: ../shortcut "title"\n[col]: /col',
    '`[code](/no)` and\n\n```\n[fenced](/no)\n```\n\n    [indented](/no)\n\n[yes](/yes)',
    '![img](/image) [![img](/image)](/wrapped) [a ![b](/c) d](/mixed)',
    '<https://auto.example> <mailto:x@y.z> <a href="/html">h</a> \\[esc](/no) [ok\\]](/ok2)',
    '[a [nested] b](/nested) [multi\nline](/multi) *[em](/em)* **[st](/st)**',
    '| h | i |\n|---|---|\n| [cell](/cell) | [r] |\n\n[r]: /table-ref',
    '# Heading [h](/heading)\n\n> quote [q](/quote)\n\n- [x] [task](/task)\n- [ ] plain\n1. [ol](/ol)',
    '[t](/t "title") [u](</with space>) [v](<../angle>) [w]( /spaced ) [x](/a/b/../c/./d)',
    '```\n[r]: /not-a-definition\n```\n\n[r]\n\n<div>\n[in-html](/html-block)\n</div>\n\n[after](/after)',
    '[r]\n\n[r]:\n/next-line',
    '[x](/api/images/00000000-0000-4000-8000-000000000000/content) [y](/auth/login) [z](/Upper/Case)',
    '[a](/a)[b](/b) [](/empty-text) [c](/raw) [d](/x//y) [e](%2Fenc) [f](/caf%C3%A9)',
    'no links here, but ] and ( and [brackets] and :colons',
    '[self](/base/page) [dup](/d) [dup2](/d)',
    'Setext heading [s](/setext)\n===\n\nTerm [l](/l1)\n---',
  ];

  it('on hand-written edge cases', () => {
    for (const markdown of CASES) {
      expect({ markdown, links: renderer.extractLinks(markdown, 'base/page') }).toEqual({
        markdown,
        links: rendered(markdown, 'base/page'),
      });
    }
    expect(renderer.extractLinks(CASES[0], 'base/page')).toEqual(['x', 'up', 'base/same', 'q']);
    expect(renderer.extractLinks(CASES[1], 'base/page')).toEqual(['by-ref', 'shortcut', 'col']);
    expect(renderer.extractLinks(CASES[2], 'base/page')).toEqual(['yes']);
  });

  it('on every realistic page of the benchmark corpus', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Corpus } = require('../../../bench/corpus') as {
      Corpus: new (seed: number) => {
        page(
          i: number,
          links: { slug: string; title: string }[],
          bytes: number,
        ): { slug: string; title: string; content: string };
      };
    };
    const corpus = new Corpus(11);
    const earlier: { slug: string; title: string }[] = [];
    let withLinks = 0;
    for (let i = 0; i < 300; i++) {
      const page = corpus.page(i, earlier.slice(-30), 3000);
      earlier.push(page);
      const links = renderer.extractLinks(page.content, page.slug);
      if (links.length > 0) withLinks++;
      expect(links).toEqual(rendered(page.content, page.slug));
    }
    expect(withLinks).toBeGreaterThan(200);
  });
});
