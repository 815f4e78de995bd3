import { MarkdownRenderer } from './markdown-renderer';
import { readCalloutMarker } from './callouts';
import { fenceLanguage, languageFromParameters } from './code-language';

describe('fenceLanguage', () => {
  it.each([
    ['ts', 'ts'],
    ['rust,ignore', 'rust'],
    ['rust ignore', 'rust'],
    ['  python  title="x"', 'python'],
    ['theme: Default; brush: cpp; gutter: true', 'cpp'],
    ['first-line: 159; theme: Default; brush: java; gutter: true', 'java'],
    ['brush: py', 'python'],
    ['language: sh', 'bash'],
    ['theme: Confluence; brush: plain; gutter: false', ''],
    ['brush: text', ''],
    ['theme: Default; gutter: true', ''],
    ['{.python .numberLines}', 'python'],
    ['{r}', 'r'],
    ['c++', 'c++'],
    ['', ''],
    ['<script>', ''],
  ])('%j gives %j', (info, language) => {
    expect(fenceLanguage(info)).toBe(language);
  });

  it('tells Confluence parameters from an ordinary info string', () => {
    expect(languageFromParameters('python')).toBeUndefined();
    expect(languageFromParameters('brush: java')).toBe('java');
  });
});

describe('readCalloutMarker', () => {
  it('reads the five GitHub kinds in any case, aliases, a title, and the legacy bold form', () => {
    expect(readCalloutMarker('[!NOTE]\ntext')).toEqual({
      kind: 'note',
      title: 'Note',
      rest: 'text',
    });
    expect(readCalloutMarker('[!important]')).toEqual({
      kind: 'important',
      title: 'Important',
      rest: '',
    });
    expect(readCalloutMarker('[!Danger] Hot stuff\nx')).toEqual({
      kind: 'caution',
      title: 'Hot stuff',
      rest: 'x',
    });
    expect(readCalloutMarker('**Warning**\nx')?.kind).toBe('warning');
    expect(readCalloutMarker('[!FOO]\nx')).toBeUndefined();
    expect(readCalloutMarker('[link](x)')).toBeUndefined();
  });
});

describe('MarkdownRenderer: callouts, heading ids, code languages', () => {
  const renderer = new MarkdownRenderer();

  it('renders each GitHub alert as a styled callout with its title, nested ones too', () => {
    const html = renderer.render(
      [
        '> [!NOTE]',
        '> Useful **info**.',
        '',
        '> [!WARNING] Mind the gap',
        '> Body',
        '>',
        '> > [!TIP]',
        '> > nested',
        '',
        '> a plain quote',
      ].join('\n'),
    );
    expect(html).toBe(
      [
        '<div class="markdown-alert markdown-alert-note">',
        '<p class="markdown-alert-title">Note</p>',
        '<p>Useful <strong>info</strong>.</p>',
        '</div>',
        '<div class="markdown-alert markdown-alert-warning">',
        '<p class="markdown-alert-title">Mind the gap</p>',
        '<p>Body</p>',
        '<div class="markdown-alert markdown-alert-tip">',
        '<p class="markdown-alert-title">Tip</p>',
        '<p>nested</p>',
        '</div>',
        '</div>',
        '<blockquote>',
        '<p>a plain quote</p>',
        '</blockquote>',
        '',
      ].join('\n'),
    );
    expect(html).not.toContain('[!');
  });

  it('keeps the sanitiser narrow: only the callout classes pass, on div and p only', () => {
    const html = renderer.render(
      '<div class="markdown-alert evil" onclick="x()">a</div>\n\n<span class="markdown-alert">b</span> <p class="markdown-alert-title x">c</p>',
    );
    expect(html).toContain('<div class="markdown-alert">a</div>');
    expect(html).toContain('<span>b</span>');
    expect(html).toContain('<p class="markdown-alert-title">c</p>');
    expect(html).not.toMatch(/evil|onclick|markdown-alert-title x/);
  });

  it('gives headings GitHub ids: punctuation dropped, Unicode kept, duplicates numbered', () => {
    const html = renderer.render(
      '# Intro\n\n## Intro\n\n## Intro\n\n### Hello, *World*! `code` café\n\n## C++ & Rust: 1.0?',
    );
    expect(html).toContain('<h1 id="intro">Intro</h1>');
    expect(html).toContain('<h2 id="intro-1">Intro</h2>');
    expect(html).toContain('<h2 id="intro-2">Intro</h2>');
    expect(html).toContain('<h3 id="hello-world-code-café">');
    expect(html).toContain('<h2 id="c--rust-10">');
  });

  it('classes code by the language of the info string', () => {
    const html = renderer.render(
      '```theme: Default; brush: cpp; gutter: true\nint x;\n```\n\n```rust,ignore\nfn f() {}\n```\n\n```brush: plain\nx\n```',
    );
    expect(html).toContain(
      '<pre><code class="language-cpp"><span class="hljs-type">int</span> x;\n</code></pre>',
    );
    expect(html).toContain(
      '<pre><code class="language-rust"><span class="hljs-keyword">fn</span> <span class="hljs-title function_">f</span>() {}\n</code></pre>',
    );
    expect(html).toContain('<pre><code>x\n</code></pre>');
  });
});
