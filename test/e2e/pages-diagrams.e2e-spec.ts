import { createPage } from '../support/pages';
import { createPdfTestApp, itPrintingPdfs, readPdf } from '../support/pdf';
import { TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { binary } from '../support/export-fixtures';
import { RenderPool } from '../../src/pages/rendering/render-pool';
import { RerenderDiagrams1795834500000 } from '../../src/common/database/migrations/1795834500000-RerenderDiagrams';
import { RerenderMermaid1795856941962 } from '../../src/common/database/migrations/1795856941962-RerenderMermaid';

/** A design note with a Graphviz diagram, a Mermaid one and hostile DOT and Mermaid inputs. */
const DESIGN = `# Deploy pipeline

\`\`\`dot
digraph pipeline {
  rankdir=LR;
  Checkout -> Build -> Canary -> Production;
  Build [URL="javascript:alert(1)" tooltip="builds"];
  Production [URL="#deploy-pipeline"];
}
\`\`\`

\`\`\`mermaid
sequenceDiagram
  Alice->>Bob: Hello
\`\`\`

\`\`\`mermaid
flowchart LR
  Villain["<img src=x onerror=alert(3)>"] --> Victim
  style Victim fill:url(https://evil.example/y)
\`\`\`

\`\`\`dot
digraph hostile {
  Evil [label="<script>alert(1)</script>" URL="https://evil.example/x" image="/etc/passwd"];
  Evil -> Other [href="data:text/html,<script>alert(2)</script>"];
}
\`\`\`
`;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const domino = require('@mixmark-io/domino') as {
  createDocument(html: string): {
    body: {
      querySelectorAll(
        selector: string,
      ): ArrayLike<{ attributes: ArrayLike<{ name: string; value: string }> }>;
    };
  };
};

/** Every attribute of every element, as a browser parses the HTML. */
function attributesOf(html: string): { name: string; value: string }[] {
  const document = domino.createDocument(`<!doctype html><html><body>${html}</body></html>`);
  return Array.from(document.body.querySelectorAll('*')).flatMap((element) =>
    Array.from(element.attributes).map(({ name, value }) => ({ name, value })),
  );
}

/** 10,000 nodes, one per line. */
const HUGE =
  '```dot\ndigraph huge {\n' +
  Array.from({ length: 10_000 }, (_, i) => `  n${i};`).join('\n') +
  '\n}\n```\n';

describe('pages: Graphviz and Mermaid diagrams', () => {
  let t: TestApp;
  let editor: Client;
  let app: Awaited<ReturnType<typeof createPdfTestApp>>;

  beforeAll(async () => {
    app = await createPdfTestApp();
    t = app.t;
    editor = await signedIn(t, 'editor');
    await createPage(editor, 'design/pipeline', { title: 'Pipeline', content: DESIGN });
  }, 60_000);
  afterAll(() => app?.close());

  it('stores and answers the Graphviz and Mermaid SVG, sanitised', async () => {
    const { body } = await editor.get('/api/pages/design/pipeline').expect(200);
    const html = body.html as string;
    expect(body.content).toBe(DESIGN);
    // The first write waited for a render worker to start rather than lay out on the main thread.
    expect(t.get(RenderPool).served).toBeGreaterThan(0);
    const figures = html.match(
      /<figure class="kb-diagram kb-diagram-graphviz">[\s\S]*?<\/figure>/g,
    )!;
    expect(figures).toHaveLength(2);
    expect(figures[0]).toMatch(
      /^<figure class="kb-diagram kb-diagram-graphviz"><svg [^>]*role="img" aria-label="Graphviz diagram">/,
    );
    for (const label of ['Checkout', 'Build', 'Canary', 'Production'])
      expect(figures[0]).toContain(`>${label}</text>`);
    // The hostile diagram is drawn, with its label as text and none of its references.
    expect(figures[1]).toContain('&lt;script&gt;alert(1)&lt;/script&gt;</text>');
    // Parsed as a browser would: no handler, and links only to fragments of the page.
    const attributes = attributesOf(html);
    expect(attributes.filter(({ name }) => /^on|src|style/i.test(name))).toEqual([]);
    const links = attributes.filter(({ name }) => /href$/i.test(name)).map((a) => a.value);
    expect(links).toEqual(['#deploy-pipeline']);
    expect(html).not.toMatch(
      /<script|<img|javascript:|evil\.example|data:text|\/etc\/passwd|<image|xlink|xmlns|onload|<style|@import|var\(/,
    );
    // Mermaid is drawn too, with its labels as text.
    const mermaid = html.match(
      /<figure class="kb-diagram kb-diagram-mermaid">[\s\S]*?<\/figure>/g,
    )!;
    expect(mermaid).toHaveLength(2);
    expect(mermaid[0]).toMatch(
      /^<figure class="kb-diagram kb-diagram-mermaid"><svg [^>]*role="img" aria-label="Mermaid diagram">/,
    );
    for (const label of ['Alice', 'Bob', 'Hello']) expect(mermaid[0]).toContain(`>${label}</text>`);
    expect(mermaid[1]).toContain('&lt;img src=x onerror=alert(3)&gt;</text>');
    expect(mermaid[1]).toContain('>Victim</text>');
    expect(html).not.toContain('kb-diagram-source');
  });

  it('caps a hostile Mermaid diagram: too long before layout, too slow after the time cap', async () => {
    const long = 'flowchart TD\n' + Array.from({ length: 1_100 }, (_, i) => `  a${i}`).join('\n');
    const huge = `flowchart TD\n  A["${'x'.repeat(25_000)}"]`;
    // Three scattered edges a line (1,800 in all): seconds past the cap on any machine.
    const tangled =
      'flowchart TD\n' +
      Array.from(
        { length: 600 },
        (_, i) =>
          `  n${i} --> n${(i * 7919 + 13) % 600} & n${(i * 31 + 7) % 600} & n${(i * 97 + 3) % 600}`,
      ).join('\n');
    const started = Date.now();
    const creating = createPage(editor, 'design/mermaid-hostile', {
      title: 'Hostile Mermaid',
      content: [long, huge, tangled]
        .map((source) => `\`\`\`mermaid\n${source}\n\`\`\`\n`)
        .join('\n'),
    });
    // The layout runs off the event loop: the server answers meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const during = Date.now();
    await editor.get('/api/pages/design/pipeline').expect(200);
    expect(Date.now() - during).toBeLessThan(1_000);
    await creating;
    expect(Date.now() - started).toBeLessThan(9_000);
    const { body } = await editor.get('/api/pages/design/mermaid-hostile').expect(200);
    const notes = (body.html as string).match(/<p class="kb-diagram-note">[^<]*<\/p>/g);
    expect(notes).toEqual([
      '<p class="kb-diagram-note">Mermaid diagram not drawn: it has more than 1,000 lines (the limit).</p>',
      '<p class="kb-diagram-note">Mermaid diagram not drawn: its source is longer than 20,000 characters (the limit).</p>',
      '<p class="kb-diagram-note">Mermaid diagram not drawn: its layout took longer than 4 seconds (the limit).</p>',
    ]);
    expect(body.html).toContain(
      '<pre><code class="language-mermaid">flowchart TD\n  n0 --&gt; n13 &amp; n7 &amp; n3\n',
    );
    expect(body.html).not.toContain('<svg');
  }, 30_000);

  it('refuses a 10,000-node graph with a clear note in place of the diagram', async () => {
    await createPage(editor, 'design/huge', { title: 'Huge', content: HUGE });
    const { body } = await editor.get('/api/pages/design/huge').expect(200);
    const html = body.html as string;
    expect(html).toMatch(
      /^<div class="kb-diagram-source"><p class="kb-diagram-note">Graphviz diagram not drawn: it has more than 5,000 nodes \(the limit\)\.<\/p><pre><code class="language-dot">digraph huge \{\n {2}n0;\n/,
    );
    expect(html).not.toContain('<svg');

    // A few lines that would draw a million edges are refused the same way.
    const names = Array.from({ length: 1_000 }, (_, i) => `n${i}`).join(' ');
    const bomb = `\`\`\`dot\ndigraph { {${names}} -> {${names}} }\n\`\`\`\n`;
    await createPage(editor, 'design/bomb', { title: 'Bomb', content: bomb });
    const res = await editor.get('/api/pages/design/bomb').expect(200);
    expect(res.body.html).toMatch(
      /^<div class="kb-diagram-source"><p class="kb-diagram-note">Graphviz diagram not drawn: it has more than 20,000 edges \(the limit\)\.<\/p>/,
    );
  });

  it('stops a layout that overruns the time cap and shows the source instead', async () => {
    // Each node with an edge to a scattered other: thousands of crossings to minimise.
    let dot = 'digraph tangled {\n';
    for (let i = 0; i < 4_000; i++) dot += `  n${i} -> n${(i * 7919 + 13) % 4_000};\n`;
    const started = Date.now();
    const creating = createPage(editor, 'design/tangled', {
      title: 'Tangled',
      content: '```dot\n' + dot + '}\n```\n',
    });
    // The layout runs off the event loop: the server answers meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const during = Date.now();
    await editor.get('/api/pages/design/pipeline').expect(200);
    expect(Date.now() - during).toBeLessThan(1_000);
    await creating;
    expect(Date.now() - started).toBeLessThan(8_000);
    const { body } = await editor.get('/api/pages/design/tangled').expect(200);
    expect(body.html).toMatch(
      /^<div class="kb-diagram-source"><p class="kb-diagram-note">Graphviz diagram not drawn: its layout took longer than 4 seconds \(the limit\)\.<\/p><pre><code class="language-dot">digraph tangled \{\n/,
    );
    // The next diagram is drawn by a new engine.
    await createPage(editor, 'design/after', {
      title: 'After',
      content: '```dot\ndigraph { Next }\n```\n',
    });
    const after = await editor.get('/api/pages/design/after').expect(200);
    expect(after.body.html).toContain('>Next</text>');
  }, 30_000);

  it('previews the same diagrams before saving', async () => {
    const { body } = await editor
      .post('/api/preview')
      .send({
        content:
          '```dot\ngraph { Preview -- Shown }\n```\n\n```mermaid\ngraph LR\n  Sketch --> Drawn\n```\n',
      })
      .expect(200);
    expect(body.html).toMatch(/^<figure class="kb-diagram kb-diagram-graphviz"><svg /);
    expect(body.html).toContain('>Preview</text>');
    expect(body.html).toMatch(
      /<figure class="kb-diagram kb-diagram-mermaid"><svg [^>]*aria-label="Mermaid diagram">/,
    );
    expect(body.html).toContain('>Sketch</text>');
  });

  it('keeps the SVG in the self-contained print document', async () => {
    const { body } = await editor.post('/export/preview/design/pipeline').send({}).expect(200);
    const doc = body.document as string;
    expect(doc).toMatch(
      /<figure class="kb-diagram kb-diagram-graphviz"><svg [^>]*aria-label="Graphviz diagram">/,
    );
    expect(doc).toContain('>Canary</text>');
    expect(doc).toMatch(
      /<figure class="kb-diagram kb-diagram-mermaid"><svg [^>]*aria-label="Mermaid diagram">/,
    );
    expect(doc).toContain('>Alice</text>');
    expect(doc).not.toMatch(/https?:/);
    expect(doc).toMatch(/figure\.kb-diagram svg \{ max-width: 100%; height: auto; \}/);
    expect(doc).not.toMatch(/(src|href)="(https?:)?\/\/|url\((?!data:|#)|@import/);
  });

  it('draws pages stored by the previous renderer after the upgrade, and only those', async () => {
    await createPage(editor, 'old/dot', {
      title: 'Old',
      content: '~~~dot\ngraph { Upgraded }\n~~~\n',
    });
    await createPage(editor, 'old/plain', { title: 'Plain', content: 'No diagram.\n' });
    const before = '<pre><code class="language-dot">graph { Upgraded }\n</code></pre>\n';
    await t.dataSource.query('UPDATE pages SET html = ? WHERE slug = ?', [before, 'old/dot']);
    await t.dataSource.query('UPDATE pages SET html = ? WHERE slug = ?', [
      '<p>kept</p>',
      'old/plain',
    ]);
    const runner = t.dataSource.createQueryRunner();
    try {
      await new RerenderDiagrams1795834500000().up(runner);
    } finally {
      await runner.release();
    }
    const rows: { slug: string; html: string | null }[] = await t.dataSource.query(
      "SELECT slug, html FROM pages WHERE slug IN ('old/dot', 'old/plain') ORDER BY slug",
    );
    expect(rows).toEqual([
      { slug: 'old/dot', html: null },
      { slug: 'old/plain', html: '<p>kept</p>' },
    ]);
    const { body } = await editor.get('/api/pages/old/dot').expect(200);
    expect(body.html).toMatch(/^<figure class="kb-diagram kb-diagram-graphviz"><svg /);
    expect(body.html).toContain('>Upgraded</text>');
  });

  it('draws Mermaid in pages stored when it was shown as source, and only those', async () => {
    await createPage(editor, 'old/mermaid', {
      title: 'Old Mermaid',
      content: '```mermaid\ngraph TD\n  Stored --> Drawn\n```\n',
    });
    await createPage(editor, 'old/other', {
      title: 'Other',
      content: '```dot\ngraph { x }\n```\n',
    });
    await t.dataSource.query('UPDATE pages SET html = ? WHERE slug IN (?, ?)', [
      '<p>old</p>',
      'old/mermaid',
      'old/other',
    ]);
    const runner = t.dataSource.createQueryRunner();
    try {
      await new RerenderMermaid1795856941962().up(runner);
    } finally {
      await runner.release();
    }
    const rows: { slug: string; html: string | null }[] = await t.dataSource.query(
      "SELECT slug, html FROM pages WHERE slug IN ('old/mermaid', 'old/other') ORDER BY slug",
    );
    expect(rows).toEqual([
      { slug: 'old/mermaid', html: null },
      { slug: 'old/other', html: '<p>old</p>' },
    ]);
    const { body } = await editor.get('/api/pages/old/mermaid').expect(200);
    expect(body.html).toMatch(/^<figure class="kb-diagram kb-diagram-mermaid"><svg /);
    expect(body.html).toContain('>Stored</text>');
  });

  itPrintingPdfs('draws the diagram into a real PDF', async () => {
    const res = await editor
      .post('/export/pdf/design/pipeline')
      .send({})
      .buffer(true)
      .parse(binary)
      .expect(200);
    const text = (await readPdf(res.body as Buffer)).text.replace(/\s+/g, ' ');
    for (const label of ['Checkout', 'Build', 'Canary', 'Production'])
      expect(text).toContain(label);
    // The Mermaid diagrams' labels, drawn as SVG text.
    for (const label of ['Alice', 'Bob', 'Hello', 'Victim']) expect(text).toContain(label);
    expect(text).not.toContain('Alice->>Bob');
  });
});
