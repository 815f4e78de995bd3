'use strict';
// Rich content (issue 33): a page with 50 highlighted code blocks (ten languages), 20 formulas
// and 5 diagrams (3 Graphviz, 2 Mermaid). Against a freshly started server (KB_WORKERS=1) on an
// empty SQLite database:
// - its render, timed: POST /api/preview (renders, stores nothing) several times in a row, and
//   POST /api/pages (renders at write and stores the HTML) as many times, each a new page,
//   while GET /healthz is sent every 50 ms and timed from its send (the render runs in the
//   render pool and the diagram worker, off the event loop);
// - page reads of the already-rendered rich page against a plain page of the same server:
//   GET /api/pages/{slug} under load for each (rendering happens at write, not read, so the
//   two differ only by the size of the answer).
const { measure } = require('./measure');
const { Prober, PROBE_MS, PROBE_P99_MS } = require('./import-bench');

const LANGUAGES = ['ts', 'python', 'go', 'rust', 'java', 'sql', 'bash', 'yaml', 'json', 'c'];
const SNIPPETS = {
  ts: 'export async function deploy(env: string): Promise<void> {\n  const plan = await build(env);\n  if (!plan.ok) throw new Error(`failed: ${plan.reason}`);\n}',
  python:
    'def deploy(env: str) -> None:\n    plan = build(env)\n    if not plan.ok:\n        raise RuntimeError(f"failed: {plan.reason}")',
  go: 'func Deploy(env string) error {\n\tplan, err := Build(env)\n\tif err != nil {\n\t\treturn fmt.Errorf("failed: %w", err)\n\t}\n\treturn nil\n}',
  rust: 'fn deploy(env: &str) -> Result<(), Error> {\n    let plan = build(env)?;\n    println!("{:?}", plan);\n    Ok(())\n}',
  java: 'public void deploy(String env) {\n    Plan plan = build(env);\n    if (!plan.ok()) throw new IllegalStateException(plan.reason());\n}',
  sql: "SELECT p.slug, count(*) AS links\n  FROM pages p JOIN page_links l ON l.source_id = p.id\n WHERE p.lifecycle = 'published'\n GROUP BY p.slug ORDER BY links DESC;",
  bash: 'set -euo pipefail\nfor host in $(cat hosts.txt); do\n  ssh "$host" "systemctl restart kb" && echo "$host ok"\ndone',
  yaml: 'deploy:\n  env: production\n  replicas: 3\n  checks:\n    - name: healthz\n      path: /healthz',
  json: '{\n  "env": "production",\n  "replicas": 3,\n  "checks": [{ "name": "healthz", "path": "/healthz" }]\n}',
  c: '#include <stdio.h>\nint main(void) {\n  for (int i = 0; i < 3; i++) printf("replica %d\\n", i);\n  return 0;\n}',
};
const FORMULAS = [
  'E = mc^2',
  '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
  '\\int_0^\\infty e^{-x^2} dx = \\frac{\\sqrt{\\pi}}{2}',
  'p_{99} \\le 50\\,\\mathrm{ms}',
  '\\lambda = \\frac{1}{\\mathrm{MTBF}}',
];

/** The benchmark page: 50 code blocks, 20 formulas (10 inline, 10 display), 5 diagrams. */
function richPage(seed) {
  const parts = [`# Rich page ${seed}\n`];
  for (let i = 0; i < 50; i++) {
    const language = LANGUAGES[i % LANGUAGES.length];
    parts.push(
      `## Step ${i + 1}\n\nRun this (${language}):\n\n\`\`\`${language}\n${SNIPPETS[language]}\n\`\`\`\n`,
    );
    if (i % 5 === 0)
      parts.push(`Inline math: $${FORMULAS[(i / 5) % FORMULAS.length]} + x_{${seed}}$.\n`);
    if (i % 5 === 2) parts.push(`$$\n${FORMULAS[i % FORMULAS.length]} + ${i}\n$$\n`);
  }
  for (let i = 0; i < 3; i++)
    parts.push(
      `\`\`\`dot\ndigraph pipeline${i} {\n  rankdir=LR;\n  Checkout -> Build -> Test${i} -> Canary -> Production;\n  Test${i} -> Rollback [style=dashed];\n}\n\`\`\`\n`,
    );
  parts.push(
    '```mermaid\nflowchart LR\n  A[Commit] --> B{CI green?}\n  B -->|yes| C[Deploy]\n  B -->|no| D[Fix]\n  D --> A\n```\n',
    '```mermaid\nsequenceDiagram\n  Client->>kb: PUT /api/pages/runbook\n  kb->>Render pool: render\n  Render pool-->>kb: HTML\n  kb-->>Client: 200\n```\n',
  );
  return parts.join('\n');
}

async function call(baseUrl, token, method, path, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const round = (n) => Math.round(n * 10) / 10;
const sorted = (times) => [...times].sort((a, b) => a - b);
const median = (times) => sorted(times)[Math.floor(times.length / 2)];

/** Report rows: the rich page's render (preview and write), /healthz meanwhile, reads. */
async function runRichBench({ baseUrl, token, settings, log }) {
  const runs = settings.quick ? 3 : 10;
  const content = richPage(0);
  log(
    `  a page of ${content.length.toLocaleString('en')} characters: 50 code blocks, 20 formulas, 5 diagrams`,
  );
  // The first render starts the render pool's workers and loads highlight.js, KaTeX, Graphviz
  // and beautiful-mermaid in them: timed apart from the steady state.
  let started = performance.now();
  const first = await call(baseUrl, token, 'POST', '/api/preview', { content });
  const firstMs = performance.now() - started;
  if (first.status !== 200) throw new Error(`preview: ${first.status}`);
  const html = first.body.html;
  const counts = {
    code: (html.match(/<pre><code class="language-/g) ?? []).length,
    math: (html.match(/class="katex"/g) ?? []).length,
    diagrams: (html.match(/<figure class="kb-diagram /g) ?? []).length,
  };
  const prober = new Prober(baseUrl, token, ['/healthz']);
  prober.start();
  const previews = [];
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    const res = await call(baseUrl, token, 'POST', '/api/preview', { content: richPage(i + 1) });
    if (res.status !== 200) throw new Error(`preview: ${res.status}`);
    previews.push(performance.now() - started);
  }
  const writes = [];
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    const res = await call(baseUrl, token, 'POST', '/api/pages', {
      slug: `bench-rich/page-${i}`,
      title: `Rich page ${i}`,
      content: richPage(100 + i),
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    writes.push(performance.now() - started);
  }
  await prober.stop();
  const healthz = prober.results()['/healthz'];

  const plain = await call(baseUrl, token, 'POST', '/api/pages', {
    slug: 'bench-rich/plain',
    title: 'Plain page',
    content: `# Plain page\n\n${'Some text. '.repeat(200)}\n`,
  });
  if (plain.status !== 201) throw new Error(`create plain: ${plain.status}`);
  const reads = {};
  for (const slug of ['bench-rich/page-0', 'bench-rich/plain']) {
    reads[slug] = await measure({
      url: baseUrl,
      requests: [{ method: 'GET', path: `/api/pages/${slug}` }],
      headers: { authorization: `Bearer ${token}` },
      connections: Math.min(settings.connections, 20),
      duration: settings.quick ? 3 : 5,
      warmup: 1,
    });
    log(
      `  GET /api/pages/${slug}: ${reads[slug].requestsPerSecond.toFixed(0)} req/s, p50 ${reads[slug].p50.toFixed(1)} ms`,
    );
  }
  const rich = reads['bench-rich/page-0'];
  const plainRead = reads['bench-rich/plain'];
  const richBytes = Buffer.byteLength(
    JSON.stringify((await call(baseUrl, token, 'GET', '/api/pages/bench-rich/page-0')).body),
  );
  return [
    {
      name: 'Rich content: render a page of 50 code blocks, 20 formulas, 5 diagrams (POST /api/preview)',
      value: `median ${round(median(previews))} ms`,
      target: '',
      ok: null,
      raw: round(median(previews)),
      unit: 'ms',
      note: `${runs} renders, max ${round(Math.max(...previews))} ms; the first (workers and engines loading) ${round(firstMs)} ms; drawn: ${counts.code} code blocks, ${counts.math} formulas, ${counts.diagrams} diagrams`,
    },
    {
      name: 'Rich content: create such a page (POST /api/pages, rendered and stored at write)',
      value: `median ${round(median(writes))} ms`,
      target: '',
      ok: null,
      raw: round(median(writes)),
      unit: 'ms',
      note: `${runs} pages, max ${round(Math.max(...writes))} ms`,
    },
    {
      name: `Rich content: GET /healthz every ${PROBE_MS} ms during those renders`,
      value: healthz.total > 0 ? `p99 ${healthz.p99.toFixed(1)} ms` : 'n/a',
      target: `p99 < ${PROBE_P99_MS} ms`,
      ok: healthz.total > 0 ? healthz.p99 < PROBE_P99_MS && healthz.failed === 0 : null,
      raw: healthz.total > 0 ? round(healthz.p99) : null,
      unit: 'ms',
      note: `${healthz.total} answers, p50 ${round(healthz.p50)} ms, max ${round(healthz.max)} ms, failed ${healthz.failed}`,
    },
    {
      name: 'Rich content: GET /api/pages/{slug} of the rendered rich page vs a plain page',
      value: `${rich.requestsPerSecond.toFixed(0)} vs ${plainRead.requestsPerSecond.toFixed(0)} req/s`,
      target: '',
      ok: null,
      raw: Math.round(rich.requestsPerSecond),
      unit: 'req/s',
      note: `p50 ${round(rich.p50)} vs ${round(plainRead.p50)} ms, p99 ${round(rich.p99)} vs ${round(plainRead.p99)} ms; the rich answer is ${Math.round(richBytes / 1024)} KB (stored HTML, no render on read)`,
    },
  ];
}

module.exports = { runRichBench, richPage };
