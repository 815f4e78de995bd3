'use strict';
// A folder move (issue 26): BENCH_MOVE_PAGES pages (1,000) under `bench-move/`, each linking to
// the next, and 50 pages outside linking into the folder, created through POST /api/pages; then
// POST /api/pages/move {from: 'bench-move', to: 'bench-moved', subtree, rewriteLinks} (every
// page a revision, every old slug a redirect, the 50 outside pages rewritten), timed from the
// request to its answer. GET /healthz is sent every 50 ms during the move, on schedule whether
// or not the previous probes answered, and timed from its send (target p99 < 50 ms: the move
// writes its one transaction in slices).
const { Prober, PROBE_MS, PROBE_P99_MS } = require('./import-bench');

const OUTSIDE = 50;
const CONCURRENCY = 8;

async function post(baseUrl, token, path, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

async function seed(baseUrl, token, count) {
  const bodies = [
    ...Array.from({ length: count }, (_, i) => ({
      slug: `bench-move/section-${Math.floor(i / 100)}/page-${i}`,
      title: `Moving page ${i}`,
      content: `# Moving page ${i}\n\nNext: [page ${i + 1}](/bench-move/section-${Math.floor((i + 1) / 100)}/page-${i + 1}).\n\n${'Some text. '.repeat(40)}`,
    })),
    ...Array.from({ length: OUTSIDE }, (_, i) => ({
      slug: `bench-outside/page-${i}`,
      title: `Outside ${i}`,
      content: `See [a moving page](/bench-move/section-0/page-${i}).`,
    })),
  ];
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const res = await post(baseUrl, token, '/api/pages', body);
      if (res.status !== 201) throw new Error(`seed ${body.slug}: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/**
 * Waits until the event feed has stopped growing for a second: the seed's page.created events
 * are recorded after their answers, and the move is measured on a quiet server.
 */
async function settle(baseUrl, token) {
  const latest = async () =>
    (
      await (
        await fetch(`${baseUrl}/api/events?after=latest`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()
    ).nextCursor;
  let before = await latest();
  for (let i = 0; i < 60; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await latest();
    if (now === before) return;
    before = now;
  }
}

/** Report rows: the move's duration and GET /healthz during it. */
async function runMoveBench({ baseUrl, token, pages, log }) {
  log(`  seeding ${pages} pages under bench-move/ and ${OUTSIDE} linking to them`);
  await seed(baseUrl, token, pages);
  await settle(baseUrl, token);
  const prober = new Prober(baseUrl, token, ['/healthz']);
  prober.start();
  const started = performance.now();
  const res = await post(baseUrl, token, '/api/pages/move', {
    from: 'bench-move',
    to: 'bench-moved',
    subtree: true,
    rewriteLinks: true,
  });
  const ms = performance.now() - started;
  await prober.stop();
  if (res.status !== 200) throw new Error(`move: ${res.status} ${JSON.stringify(res.body)}`);
  const moved = res.body.moved.length;
  const rewritten = res.body.rewritten.length;
  const healthz = prober.results()['/healthz'];
  const round = (n) => Math.round(n * 10) / 10;
  return [
    {
      name: `Move: a folder of ${pages.toLocaleString('en')} pages (POST /api/pages/move, subtree, rewriteLinks)`,
      value: `${(ms / 1000).toFixed(2)} s`,
      target: '',
      ok: null,
      raw: round(ms),
      unit: 'ms',
      note: `${moved} pages moved (each a revision and a redirect), ${rewritten} linking pages rewritten, one transaction`,
    },
    {
      name: `Move: GET /healthz every ${PROBE_MS} ms during the folder move`,
      value: healthz.total > 0 ? `p99 ${healthz.p99.toFixed(1)} ms` : 'n/a',
      target: `p99 < ${PROBE_P99_MS} ms`,
      ok: healthz.total > 0 ? healthz.p99 < PROBE_P99_MS && healthz.failed === 0 : null,
      raw: healthz.total > 0 ? round(healthz.p99) : null,
      unit: 'ms',
      note: `${healthz.total} answers, p50 ${round(healthz.p50)} ms, max ${round(healthz.max)} ms, failed ${healthz.failed}`,
    },
  ];
}

module.exports = { runMoveBench };
