import { createPage } from '../support/pages';
import { createPdfTestApp, itPrintingPdfs, readPdf } from '../support/pdf';
import { TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { binary } from '../support/export-fixtures';
import { RerenderRichContent1795834442844 } from '../../src/common/database/migrations/1795834442844-RerenderRichContent';

/** A runbook as engineers write it: every rich feature of issue 33's first part at once. */
const SHOWCASE = `[[toc]]

## Deploy

Run the script[^why]:

\`\`\`bash
#!/bin/sh
echo "deploying $VERSION"
\`\`\`

\`\`\`theme: Default; brush: py
def rollback(version):
    return version - 1
\`\`\`

## Capacity

The load is $L = \\lambda W$ per node :rocket:.

$$
\\sum_{i=1}^{n} x_i
$$

\`\`\`math
\\frac{a}{b}
\`\`\`

A typo: $\\frac{1}{$ stays readable.

::: details Environment matrix
| env | nodes |
|-----|-------|
| prod | 12 |
:::

[^why]: Because Friday deploys need a script.
`;

describe('pages: highlighted code, math, footnotes, [[toc]], details, emoji', () => {
  let t: TestApp;
  let editor: Client;
  let app: Awaited<ReturnType<typeof createPdfTestApp>>;

  beforeAll(async () => {
    app = await createPdfTestApp();
    t = app.t;
    editor = await signedIn(t, 'editor');
    await createPage(editor, 'ops/runbook', { title: 'Runbook', content: SHOWCASE });
  }, 60_000);
  afterAll(() => app?.close());

  it('stores and answers the rendered HTML with every feature', async () => {
    const { body } = await editor.get('/api/pages/ops/runbook').expect(200);
    const html = body.html as string;
    expect(body.content).toBe(SHOWCASE);
    expect(html).toContain(
      '<nav class="kb-toc"><ul><li><a href="#deploy">Deploy</a></li><li><a href="#capacity">Capacity</a></li></ul></nav>',
    );
    expect(html).toMatch(
      /<pre><code class="language-bash"><span class="hljs-meta">#!\/bin\/sh<\/span>/,
    );
    expect(html).toContain('<code class="language-python"><span class="hljs-keyword">def</span>');
    expect(html).toMatch(
      /The load is <span class="kb-math"><span class="katex">.*<\/span> per node 🚀\.<\/p>/,
    );
    expect(html.match(/<div class="kb-math"><span class="katex-display">/g)).toHaveLength(2);
    expect(html).toContain('<span class="kb-math kb-math-error"><code>\\frac{1}{</code>');
    expect(html).toContain('<details><summary>Environment matrix</summary>');
    expect(html).toMatch(
      /<section class="footnotes">[\s\S]*<li id="fn1" class="footnote-item"><p>Because Friday deploys need a script\./,
    );
  });

  it('keeps it all in the self-contained print document, with the math fonts inline', async () => {
    const { body } = await editor.post('/export/preview/ops/runbook').send({}).expect(200);
    const doc = body.document as string;
    expect(doc).toContain('<span class="hljs-keyword">def</span>');
    expect(doc).toContain('<nav class="kb-toc">');
    expect(doc).toContain('<section class="footnotes">');
    expect(doc).toContain('<details open><summary>Environment matrix</summary>');
    expect(doc).toMatch(
      /@font-face\{[^}]*font-family:KaTeX_Main[^}]*src:url\(data:font\/woff2;base64,/,
    );
    expect(doc).toMatch(/\.hljs-keyword[^{]*\{ color: #d73a49; \}/);
    // Nothing loaded from elsewhere: no address in any attribute or stylesheet.
    expect(doc).not.toMatch(/(src|href)="(https?:)?\/\/|url\((?!data:)|@import/);
  });

  it('renders pages stored by the previous renderer again after the upgrade', async () => {
    await createPage(editor, 'old/code', { title: 'Old', content: '```ts\nconst x = 1;\n```' });
    const before = '<pre><code class="language-ts">const x = 1;\n</code></pre>\n';
    await t.dataSource.query('UPDATE pages SET html = ? WHERE slug = ?', [before, 'old/code']);
    const runner = t.dataSource.createQueryRunner();
    try {
      await new RerenderRichContent1795834442844().up(runner);
    } finally {
      await runner.release();
    }
    await t.restart();
    editor = await signedIn(t, 'editor');
    const { body } = await editor.get('/api/pages/old/code').expect(200);
    expect(body.html).toContain('<span class="hljs-keyword">const</span>');
  });

  itPrintingPdfs('prints formulas, footnotes and highlighted code into a real PDF', async () => {
    const res = await editor
      .post('/export/pdf/ops/runbook')
      .send({})
      .buffer(true)
      .parse(binary)
      .expect(200);
    const text = (await readPdf(res.body as Buffer)).text.replace(/\s+/g, ' ');
    expect(text).toContain('Runbook');
    expect(text).toContain('echo "deploying $VERSION"');
    expect(text).toContain('def rollback(version):');
    expect(text).toMatch(/L\s?=\s?λ\s?W/);
    expect(text).toContain('∑');
    expect(text).toContain('Because Friday deploys need a script.');
    expect(text).toContain('Environment matrix');
  });
});
