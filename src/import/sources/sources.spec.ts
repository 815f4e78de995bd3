import { SourceEntry } from '../import.types';
import { convertConfluence } from './confluence-source';
import { convertMarkdown } from './markdown-source';
import { convertWikiJs, wikiJsMarkdown } from './wikijs-source';

const options = { prefix: '', pageMaxBytes: 1024 * 1024 };

function entries(files: Record<string, string | Buffer>, upload = 'import.zip'): SourceEntry[] {
  return Object.entries(files).map(([path, data]) => ({
    path,
    upload,
    data: Buffer.isBuffer(data) ? data : Buffer.from(data),
  }));
}

describe('convertMarkdown', () => {
  it('takes the level-one heading as title, removes it, keeps front matter as properties and tags', async () => {
    const result = await convertMarkdown(
      entries({
        'Guide/Getting Started.md':
          '\ufeff---\ntags: [setup, intro]\nowner: ops\ndate: 2024-01-02\n---\n\n# Getting started\n\nHello [next](../other.md).\n',
        'other.markdown': 'Other\n=====\n\ntext',
        'img/logo.png': Buffer.from([0x89, 0x50]),
      }),
      { ...options, prefix: 'kb' },
    );
    expect(result.invalid).toEqual([]);
    expect(result.documents).toEqual([
      {
        sourcePath: 'Guide/Getting Started.md',
        slug: 'kb/guide/getting-started',
        title: 'Getting started',
        content: 'Hello [next](../other.md).',
        tags: ['setup', 'intro'],
        properties: { owner: 'ops', date: '2024-01-02' },
        baseDir: 'Guide',
        refKeys: ['Guide/Getting Started.md', 'Guide/Getting Started'],
      },
      expect.objectContaining({ slug: 'kb/other', title: 'Other', content: 'text' }),
    ]);
    expect([...result.assets.keys()]).toEqual(['img/logo.png']);
  });

  it('reports files without a heading, bad UTF-8, duplicate and reserved paths', async () => {
    const result = await convertMarkdown(
      entries({
        'a.md': 'no heading\n```\n# not a heading\n```',
        'b.md': Buffer.from([0x23, 0x20, 0xff, 0xfe]),
        'c.md': '# C',
        'C.markdown': '# C again',
        'x/raw.md': '# Raw',
        'empty.md': '',
      }),
      options,
    );
    expect(result.documents.map((d) => d.slug)).toEqual(['c']);
    expect(result.invalid.map((i) => [i.path, i.code])).toEqual([
      ['a.md', 'missing_title'],
      ['b.md', 'invalid_encoding'],
      ['C.markdown', 'duplicate_path'],
      ['x/raw.md', 'invalid_path'],
      ['empty.md', 'missing_title'],
    ]);
  });

  it('refuses a loose file of another format instead of guessing', async () => {
    const result = await convertMarkdown(entries({ 'pages.json': '[]' }, 'pages.json'), options);
    expect(result.invalid).toEqual([
      { path: 'pages.json', code: 'wrong_format', message: expect.any(String) },
    ]);
  });
});

describe('convertWikiJs', () => {
  const page = {
    path: 'install/docker',
    title: 'Docker: Setup',
    content: 'See [req](/install/requirements).',
    tags: [{ tag: 'setup' }],
    description: 'How',
  };

  it('accepts every JSON shape Wiki.js produces', async () => {
    const shapes = {
      'one.json': JSON.stringify(page),
      'array.json': JSON.stringify([{ ...page, path: 'a' }]),
      'single.json': JSON.stringify({ data: { pages: { single: { ...page, path: 'b' } } } }),
      'list.json': JSON.stringify({ data: { pages: { list: [{ ...page, path: 'c' }] } } }),
      'export.json': JSON.stringify({
        pages: [
          { ...page, path: 'd', contentType: 'html', content: '<p>Hi <strong>there</strong></p>' },
        ],
      }),
    };
    const result = await convertWikiJs(entries(shapes), options);
    expect(result.invalid).toEqual([]);
    expect(result.documents.map((d) => [d.sourcePath, d.slug, d.title, d.tags])).toEqual([
      ['one.json#install/docker', 'install/docker', 'Docker: Setup', ['setup']],
      ['array.json#a', 'a', 'Docker: Setup', ['setup']],
      ['single.json#b', 'b', 'Docker: Setup', ['setup']],
      ['list.json#c', 'c', 'Docker: Setup', ['setup']],
      ['export.json#d', 'd', 'Docker: Setup', ['setup']],
    ]);
    expect(result.documents[4].content).toBe('Hi **there**');
    expect(result.documents[0].properties).toEqual({ description: 'How' });
  });

  it('names unknown shapes and pages without content', async () => {
    const result = await convertWikiJs(
      entries({
        'x.json': '{"hello":1}',
        'l.json': JSON.stringify({ data: { pages: { list: [{ path: 'p', title: 'P' }] } } }),
        'bad.json': '{',
      }),
      options,
    );
    expect(result.invalid.map((i) => [i.path, i.code])).toEqual([
      ['l.json#p', 'wikijs_invalid_page'],
      ['bad.json', 'invalid_json'],
    ]);
    // Inside an archive, JSON of another shape (a manifest, a config) is a file, not a page.
    expect([...result.assets.keys()]).toEqual(['x.json']);
    expect(result.notPages?.get('x.json')).toContain('not a Wiki.js page shape');
    // Uploaded on its own it is a mistake, named as such.
    const loose = await convertWikiJs(entries({ 'x.json': '{"hello":1}' }, 'x.json'), options);
    expect(loose.invalid.map((i) => [i.path, i.code])).toEqual([
      ['x.json', 'wikijs_unknown_shape'],
    ]);
  });

  it('reads storage files with unquoted front matter and Wiki.js markers', async () => {
    const md =
      '---\ntitle: Setup: Docker\ndescription: x\ntags: setup, docker\npublished: true\n---\n\n> Read this first.\n{.is-info}\n\n![logo](/assets/logo.png =100x){.radius-4}\n\n- a\n{.links-list}\n';
    const result = await convertWikiJs(
      entries({ 'install/docker.md': md, 'assets/logo.png': 'png' }),
      options,
    );
    expect(result.documents).toEqual([
      expect.objectContaining({
        slug: 'install/docker',
        title: 'Setup: Docker',
        tags: ['setup', 'docker'],
        properties: { description: 'x', published: true },
        content: '> [!NOTE]\n> Read this first.\n\n![logo](/assets/logo.png =100x)\n\n- a',
      }),
    ]);
  });

  it('reads HTML storage files with the front matter in a leading comment', async () => {
    const html =
      '<!--\ntitle: Legacy Page\ntags: old\n-->\n<h2>Part</h2><p>Some <a href="/install">link</a>.</p>';
    const result = await convertWikiJs(entries({ 'legacy.html': html }), options);
    expect(result.documents).toEqual([
      expect.objectContaining({
        slug: 'legacy',
        title: 'Legacy Page',
        tags: ['old'],
        content: '## Part\n\nSome [link](/install).',
      }),
    ]);
  });

  it('turns callout markers into callouts only after blockquotes', async () => {
    expect(wikiJsMarkdown('text\n{.is-warning}')).toBe('text');
    expect(wikiJsMarkdown('> a\n> b\n{.is-danger}')).toBe('> [!CAUTION]\n> a\n> b');
  });
});

describe('convertConfluence', () => {
  const page = (title: string, body: string) =>
    `<html><head><title>Space : ${title}</title></head><body><div id="breadcrumb-section">crumbs</div><h1 id="title-heading"><span id="title-text"> Space : ${title} </span></h1><div class="page-metadata">Created by x</div><div id="main-content">${body}</div><div id="footer">Generated</div></body></html>`;

  it('reports its progress per converted page, in entries, up to all of them', async () => {
    const files: Record<string, string> = { 'index.html': '<ul></ul>', 'img/a.png': 'png' };
    for (let i = 0; i < 5; i++) files[`Page_${i}.html`] = page(`Page ${i}`, `<p>${i}</p>`);
    files['notes.md'] = '# Notes\n\ntext';
    const seen: number[] = [];
    const result = await convertConfluence(entries(files), {
      ...options,
      onProgress: (done) => seen.push(done),
    });
    expect(result.documents).toHaveLength(6);
    // The index and the image at once, then one step per page and per Markdown file.
    expect(seen).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });

  it('converts code panels, information panels, tables and TOC macros', async () => {
    const body = [
      `<style>.x{color:red}</style><div class="toc-macro"><ul><li><a href="#a">A</a></li></ul></div>`,
      `<div class="code panel pdl"><div class="codeHeader panelHeader pdl"><b>Run it</b></div><div class="codeContent panelContent pdl"><pre class="syntaxhighlighter-pre" data-syntaxhighlighter-params="brush: py; gutter: false">print("&lt;hi&gt;")</pre></div></div>`,
      `<div class="confluence-information-macro confluence-information-macro-warning"><div class="confluence-information-macro-body"><p>Careful</p></div></div>`,
      `<div class="table-wrap"><table class="confluenceTable"><tbody><tr><th>K</th><th>V</th></tr><tr><td>a|b</td><td><p>one</p><p>two</p></td></tr></tbody></table></div>`,
      `<table><tbody><tr><td colspan="2" style="color:red">wide</td></tr><tr><td>1</td><td>2</td></tr></tbody></table>`,
    ].join('');
    const result = await convertConfluence(entries({ 'Page_1.html': page('Page', body) }), options);
    expect(result.invalid).toEqual([]);
    expect(result.documents[0].title).toBe('Page');
    expect(result.documents[0].content).toBe(
      [
        '**Run it**',
        '',
        '```python',
        'print("<hi>")',
        '```',
        '',
        '> [!CAUTION]',
        '> Careful',
        '',
        '| K | V |',
        '| --- | --- |',
        '| a\\|b | one two |',
        '',
        '<table><tbody><tr><td colspan="2">wide</td></tr><tr><td>1</td><td>2</td></tr></tbody></table>',
      ].join('\n'),
    );
  });

  it('gives a page whose title is taken its file name instead', async () => {
    const result = await convertConfluence(
      entries(
        { 'a-demo.html': page('Demo', '<p>a</p>'), 'b-demo.html': page('Demo', '<p>b</p>') },
        'x',
      ),
      options,
    );
    expect(result.invalid).toEqual([]);
    expect(result.documents.map((d) => [d.slug, d.title])).toEqual([
      ['demo', 'Demo'],
      ['b-demo', 'Demo'],
    ]);
  });

  it('builds the hierarchy from index.html and maps attachments and page links', async () => {
    const index = `<html><body><div class="pageSection"><ul><li><a href="Parent_1.html">Parent</a><ul><li><a href="Child_2.html">Child</a></li></ul></li></ul></div></body></html>`;
    const parent = page(
      'Parent',
      `<p><a href="Child_2.html">child</a> <a href="/pages/viewpage.action?pageId=2">by id</a></p>` +
        `<p><img class="confluence-embedded-image" src="http://server/download/attachments/1/logo.png?v=1" data-linked-resource-id="10" data-linked-resource-container-id="1" data-linked-resource-default-alias="logo.png"></p>` +
        `<p><img src="data:image/png;base64,AAAA"></p>`,
    ).replace(
      '</body>',
      '<div class="pageSection"><div class="greybox"><a href="attachments/1/11.txt">notes.txt</a></div></div></body>',
    );
    const result = await convertConfluence(
      entries({
        'space/index.html': index,
        'space/Parent_1.html': parent,
        'space/Child_2.html': page('Child', '<p>hi</p>'),
        'space/attachments/1/10.png': 'png',
        'space/attachments/1/11.txt': 'txt',
      }),
      options,
    );
    expect(result.invalid).toEqual([]);
    expect(result.documents.map((d) => [d.slug, d.title])).toEqual([
      ['parent', 'Parent'],
      ['parent/child', 'Child'],
    ]);
    expect(result.documents[0].content).toBe(
      '[child](Child_2.html) [by id](Child_2.html)\n\n![logo.png](attachments/1/10.png)\n\n## Attachments\n\n- [notes.txt](attachments/1/11.txt)',
    );
  });
});
