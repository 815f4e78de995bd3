import {
  countDotEdges,
  countDotNodes,
  DIAGRAM_LIMITS,
  MERMAID_KINDS_NOTE,
  resolveMermaidColours,
} from './diagrams';
import { MarkdownRenderer } from './markdown-renderer';

/** A DOT graph of `n` nodes, each with an edge to a scattered other (hard to lay out). */
export function scatteredGraph(n: number): string {
  let dot = 'digraph big {\n';
  for (let i = 0; i < n; i++) dot += `  n${i} -> n${(i * 7919 + 13) % n};\n`;
  return `${dot}}\n`;
}

describe('diagrams', () => {
  const renderer = new MarkdownRenderer();
  const render = (markdown: string) => renderer.render(markdown);

  it('draws a Graphviz fence as a sanitised, labelled SVG in a kb-diagram figure', () => {
    const html = render(
      '```dot\ndigraph { rankdir=LR; build -> "ship it" [URL="javascript:alert(1)"]; }\n```',
    );
    expect(html).toMatch(
      /^<figure class="kb-diagram kb-diagram-graphviz"><svg width="\d+pt" height="\d+pt" viewBox="[\d. ]+" role="img" aria-label="Graphviz diagram">/,
    );
    expect(html).toContain('<g id="kb-diagram-0-node1" class="node">\n<title>build</title>');
    expect(html).toContain('>ship it</text>');
    expect(html).not.toMatch(/javascript|xmlns|<!--|<\?xml|DOCTYPE/);
    expect(html.trim().endsWith('</svg></figure>')).toBe(true);
  });

  it('gives each diagram of a page its own ids, and takes the graphviz name too', () => {
    const html = render('```dot\ngraph { a -- b }\n```\n\n```graphviz\ngraph { c }\n```');
    expect(html.match(/<figure class="kb-diagram/g)).toHaveLength(2);
    expect(html).toContain('id="kb-diagram-0-node1"');
    expect(html).toContain('id="kb-diagram-1-node1"');
  });

  it('shows a DOT syntax error as the source with Graphviz’s message', () => {
    const html = render('```dot\ndigraph { a -> }\n```');
    expect(html).toMatch(
      /^<div class="kb-diagram-source"><p class="kb-diagram-note">Graphviz diagram not drawn: Graphviz could not read it: .*syntax error.*<\/p><pre><code class="language-dot">digraph \{ a -&gt; \}\n<\/code><\/pre><\/div>\n$/,
    );
  });

  it('refuses a 10,000-node graph before any layout, with a clear note', () => {
    const started = Date.now();
    const html = render('```dot\n' + scatteredGraph(10_000) + '```');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(html).toContain(
      '<p class="kb-diagram-note">Graphviz diagram not drawn: it has more than 5,000 nodes (the limit).</p>',
    );
    expect(html).toContain('<pre><code class="language-dot">digraph big {\n  n0 -&gt; n13;');
    expect(html).not.toContain('<svg');
  });

  it('refuses a few lines that would draw a million edges, before any layout', () => {
    const names = Array.from({ length: 1_000 }, (_, i) => `n${i}`).join(' ');
    const started = Date.now();
    const html = render(`\`\`\`dot\ndigraph { {${names}} -> {${names}} }\n\`\`\``);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(html).toContain(
      '<p class="kb-diagram-note">Graphviz diagram not drawn: it has more than 20,000 edges (the limit).</p>',
    );
  });

  it('refuses a source longer than the limit', () => {
    const html = render('```dot\ngraph { a }\n' + '// x\n'.repeat(25_001) + '```');
    expect(html).toContain(
      'Graphviz diagram not drawn: its source is longer than 100,000 characters (the limit).',
    );
  });

  it('stops a layout that overruns the time cap and shows the source', () => {
    const started = Date.now();
    const html = render('```dot\n' + scatteredGraph(4_000) + '```');
    const took = Date.now() - started;
    expect(html).toContain(
      `Graphviz diagram not drawn: its layout took longer than ${DIAGRAM_LIMITS.timeoutMs / 1000} seconds (the limit).`,
    );
    expect(took).toBeGreaterThanOrEqual(DIAGRAM_LIMITS.timeoutMs);
    expect(took).toBeLessThan(DIAGRAM_LIMITS.timeoutMs + 2_000);
    // The engine was ended and a new one draws the next diagram.
    expect(render('```dot\ndigraph { after -> stop }\n```')).toContain('<title>after</title>');
  }, 30_000);

  it('draws a Mermaid flowchart as a sanitised, labelled SVG with plain colours', () => {
    const html = render(
      '```mermaid\n%% a comment\nflowchart LR\n  A[Build] -->|ok| B{Ship?}\n  B --> C["<script>alert(1)</script>"]\n```',
    );
    expect(html).toMatch(
      /^<figure class="kb-diagram kb-diagram-mermaid"><svg [^>]*viewBox="[\d. ]+"[^>]*role="img" aria-label="Mermaid diagram">/,
    );
    for (const label of ['Build', 'Ship?', 'ok']) expect(html).toContain(`>${label}</text>`);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;</text>');
    // Arrowheads are markers, referenced by the diagram's prefixed ids.
    expect(html).toMatch(/<marker id="kb-diagram-0-arrowhead"/);
    expect(html).toMatch(/marker-end="url\(#kb-diagram-0-arrowhead\)"/);
    // The stylesheet (with its web font @import) is gone and its colours are plain values.
    expect(html).not.toMatch(/<style|@import|googleapis|var\(|<script|xmlns|style=/);
    expect(html).toMatch(/fill="#[0-9A-F]{6}"/);
  });

  it('draws sequence, class, state and ER diagrams', () => {
    for (const [source, label] of [
      ['sequenceDiagram\n  Alice->>Bob: Hello Bob', 'Hello Bob'],
      ['classDiagram\n  Animal <|-- Duck\n  Duck : +swim()', 'Duck'],
      ['stateDiagram-v2\n  [*] --> Idle\n  Idle --> Busy', 'Busy'],
      ['erDiagram\n  CUSTOMER ||--o{ ORDER : places', 'CUSTOMER'],
    ]) {
      const html = render('```mermaid\n' + source + '\n```');
      expect(html).toMatch(/^<figure class="kb-diagram kb-diagram-mermaid"><svg /);
      expect(html).toContain(label);
    }
  });

  it('shows a Mermaid kind kb does not draw as source with the note', () => {
    expect(render('```mermaid\npie title Pets\n  "Dogs" : 3\n```\n<script>')).toBe(
      `<div class="kb-diagram-source"><p class="kb-diagram-note">Mermaid diagram not drawn: ${MERMAID_KINDS_NOTE}, and this one starts &quot;pie title Pets&quot;.</p>` +
        '<pre><code class="language-mermaid">pie title Pets\n  &quot;Dogs&quot; : 3\n</code></pre></div>\n',
    );
  });

  it('refuses an oversized Mermaid source before layout and stops one over the time cap', () => {
    const long =
      'flowchart TD\n' +
      Array.from({ length: 1_200 }, (_, i) => `  a${i} --> a${i + 1}`).join('\n');
    const started = Date.now();
    expect(render('```mermaid\n' + long + '\n```')).toContain(
      'Mermaid diagram not drawn: it has more than 1,000 lines (the limit).',
    );
    expect(Date.now() - started).toBeLessThan(500);

    // 900 scattered edges take ELK seconds on any machine; a cap of 0.2 s here, so the test
    // does not depend on how fast this machine lays them out.
    const tangled =
      'flowchart TD\n' +
      Array.from({ length: 900 }, (_, i) => `  n${i} --> n${(i * 7919 + 13) % 900}`).join('\n');
    const cap = DIAGRAM_LIMITS.timeoutMs;
    DIAGRAM_LIMITS.timeoutMs = 200;
    try {
      const before = Date.now();
      const html = render('```mermaid\n' + tangled + '\n```');
      const took = Date.now() - before;
      expect(html).toContain(
        'Mermaid diagram not drawn: its layout took longer than 0.2 seconds (the limit).',
      );
      expect(took).toBeLessThan(200 + 2_000);
    } finally {
      DIAGRAM_LIMITS.timeoutMs = cap;
    }
    // A new engine draws the next one.
    expect(render('```mermaid\ngraph TD\n  after --> stop\n```')).toContain('>after</text>');
  }, 30_000);

  it('works out the colours the Mermaid stylesheet leaves to custom properties', () => {
    expect(resolveMermaidColours('<rect fill="var(--_node-fill)" stroke="var(--_line)"/>')).toBe(
      '<rect fill="#F9F9F9" stroke="#939395"/>',
    );
    expect(resolveMermaidColours('<text fill="var(--unknown, red)"/>')).toBe(
      '<text fill="#27272A"/>',
    );
  });

  it('counts the nodes a DOT source names, not its attributes, keywords or graph names', () => {
    expect(
      countDotNodes(
        'strict digraph G { rankdir=LR; node [shape=box]; subgraph cluster_a { label="A"; a; b } ' +
          'a -> b -> "c d" [label="x y"]; /* e -> f */ // g\n# h\n 1 -> 2.5; }',
        100,
      ),
    ).toBe(5);
    expect(countDotNodes(scatteredGraph(10_000), 5_000)).toBe(5_001);
  });

  it('counts the edges a DOT source draws, groups multiplied', () => {
    expect(countDotEdges('digraph { a -> b -> c; d -- e [label="x -> y"]; }')).toBe(3);
    expect(countDotEdges('digraph { {a b c} -> {d e}; f -> subgraph s { g h } }')).toBe(8);
    expect(countDotEdges('digraph { {a {b c}} -> subgraph { rank=same; d } }')).toBe(3);
    expect(countDotEdges(scatteredGraph(4_000))).toBe(4_000);
  });
});
