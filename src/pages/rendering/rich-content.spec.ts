import { printDocument } from '../../export/public-api';
import { MarkdownRenderer } from './markdown-renderer';

describe('rich content in the one renderer', () => {
  const renderer = new MarkdownRenderer();
  const render = (markdown: string) => renderer.render(markdown);

  describe('code', () => {
    it('highlights a known language with token spans inside the language class', () => {
      const html = render('```ts\nconst answer: number = 42; // why\n```');
      expect(html).toContain('<pre><code class="language-ts">');
      expect(html).toContain('<span class="hljs-keyword">const</span>');
      expect(html).toContain('<span class="hljs-number">42</span>');
      expect(html).toContain('<span class="hljs-comment">// why</span>');
    });

    it('maps the languages imports produce and leaves unknown ones plain', () => {
      expect(render('```theme: Default; brush: js\nlet x = 1;\n```')).toContain(
        '<code class="language-javascript"><span class="hljs-keyword">let</span>',
      );
      expect(render('```vb\nDim x As Integer\n```')).toContain('hljs-keyword');
      expect(render('```not-a-language\nlet x = 1;\n```')).toBe(
        '<pre><code class="language-not-a-language">let x = 1;\n</code></pre>\n',
      );
      expect(render('```\n<b>no</b>\n```')).toBe(
        '<pre><code>&lt;b&gt;no&lt;/b&gt;\n</code></pre>\n',
      );
    });

    it('escapes the code it highlights', () => {
      const html = render('```html\n<script>alert(1)</script>\n```');
      expect(html).not.toContain('<script>');
      expect(html).toContain('&lt;');
    });
  });

  describe('math', () => {
    it('typesets inline, display and fenced math as KaTeX HTML with MathML', () => {
      const html = render(
        'Energy $E = mc^2$.\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n```math\n\\frac{1}{2}\n```',
      );
      expect(html).toMatch(/<p>Energy <span class="kb-math"><span class="katex">/);
      expect(html).toContain('<annotation encoding="application/x-tex">E = mc^2</annotation>');
      expect(html.match(/<div class="kb-math"><span class="katex-display">/g)).toHaveLength(2);
      expect(html).toContain('<mfrac>');
      expect(html).not.toMatch(/https?:/);
    });

    it('leaves prices alone', () => {
      expect(render('It costs $5 and $10.')).toBe('<p>It costs $5 and $10.</p>\n');
    });

    it('shows the source and the error of a malformed formula', () => {
      const html = render('Bad $\\frac{1}{$ here.');
      expect(html).toContain('<span class="kb-math kb-math-error"><code>\\frac{1}{</code>');
      expect(html).toContain('KaTeX parse error');
      expect(html).toMatch(/here\.<\/p>/);
    });

    it('never turns a formula into a link or markup of the author', () => {
      const html = render('$\\href{javascript:alert(1)}{x}$ and $\\htmlClass{evil}{x}$');
      expect(html).not.toMatch(/<a |class="evil"|javascript:alert\(1\)"/);
      expect(render(`$${'x'.repeat(10_001)}$`)).toContain('at most 10000 characters');
    });

    it('cannot be faked by a page: a NUL in the Markdown is not a placeholder', () => {
      const html = render('a \u0000kbinsert:0\u0000 b $x$');
      expect(html).not.toMatch(/^<p>a <span class="kb-math">/);
      expect(html).toContain('\uFFFDkbinsert:0\uFFFD');
    });
  });

  it('renders footnotes at the end in a footnotes section', () => {
    const html = render('Claim[^1].\n\n[^1]: The source.');
    expect(html).toContain('<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>');
    expect(html).toMatch(
      /<section class="footnotes">\n<ol class="footnotes-list">\n<li id="fn1" class="footnote-item"><p>The source\. <a href="#fnref1" class="footnote-backref">/,
    );
  });

  it('turns [[toc]] into a nested list of links to the headings', () => {
    const html = render('[[toc]]\n\n# One\n## Two `x`\n### Three\n## Four\n');
    expect(html).toContain(
      '<nav class="kb-toc"><ul><li><a href="#one">One</a><ul><li><a href="#two-x">Two x</a>' +
        '<ul><li><a href="#three">Three</a></li></ul></li><li><a href="#four">Four</a></li></ul></li></ul></nav>',
    );
    expect(render('Say [[toc]] inline.')).toBe('<p>Say [[toc]] inline.</p>\n');
  });

  it('renders collapsible sections and emoji shortcodes', () => {
    expect(render('::: details Show <b>me</b>\nHidden *text*.\n:::')).toBe(
      '<details><summary>Show &lt;b&gt;me&lt;/b&gt;</summary>\n<p>Hidden <em>text</em>.</p>\n</details>\n',
    );
    expect(render('Ship it :rocket: at 10:30:00')).toBe('<p>Ship it 🚀 at 10:30:00</p>\n');
    expect(render('`:rocket:`')).toBe('<p><code>:rocket:</code></p>\n');
  });

  it('keeps the sanitiser: authored HTML gets no handlers from the new tags', () => {
    const html = render(
      '<section class="footnotes" onclick="x()"><nav class="kb-toc" style="x">a</nav></section>',
    );
    expect(html).toBe('<section class="footnotes"><nav class="kb-toc">a</nav></section>');
  });

  it('embeds KaTeX fonts in a print document with math, and only then', () => {
    const withMath = printDocument('T', 'en', render('$x^2$'));
    expect(withMath).toMatch(/@font-face\{[^}]*src:url\(data:font\/woff2;base64,/);
    expect(withMath).not.toMatch(/url\(fonts\//);
    expect(withMath).not.toMatch(/https?:/);
    expect(withMath.match(/<style>/g)).toHaveLength(1);
    expect(printDocument('T', 'en', render('no math'))).not.toContain('@font-face');
  });
});
