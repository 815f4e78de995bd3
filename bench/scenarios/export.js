'use strict';
// Export scenarios, run against the 10,000-page database (phase "pages"):
// - archiveExport: POST /api/export/archive of every page, streamed and read to the end; time,
//   ZIP size and the server's resident memory sampled during the export (peak over baseline);
// - printDocument: POST /export/preview for a page showing 10 stored images (each inlined as a
//   data: URI), one request at a time: the print document build time before any PDF service,
//   measured from the client (so it includes HTTP, session lookup and JSON encoding).
const { readFileSync } = require('node:fs');
const { deflateSync } = require('node:zlib');
const { percentile } = require('../measure');
const { childPids } = require('../server');

const ADMIN = { username: 'bench', password: 'bench-password' };
const PRINT_REQUESTS = 300;

function crc32(buf) {
  let crc = 0xffffffff;
  for (const byte of buf) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A noisy RGB PNG of about `size`² × 3 bytes (noise keeps it from compressing away). */
function png(size, seed) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 2;
  const raw = Buffer.alloc((size * 3 + 1) * size);
  let state = seed * 2654435761;
  for (let i = 0; i < raw.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    raw[i] = i % (size * 3 + 1) === 0 ? 0 : state >>> 24;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function session(url) {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (!res.ok) throw new Error(`login: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('kb_session='));
}

/** Resident memory (MiB) of kb's processes: the server, and its workers with KB_WORKERS > 1. */
function rssMiB(pid) {
  if (!pid) return NaN;
  let total = 0;
  for (const each of [pid, ...childPids(pid)]) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${each}/status`, 'utf8'));
      total += match ? Number(match[1]) / 1024 : 0;
    } catch {
      // gone
    }
  }
  return total || NaN;
}

function row(times, statuses, note) {
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  const round = (n) => Math.round(n * 100) / 100;
  return {
    requestsPerSecond: (times.length * 1000) / total,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p97_5: round(percentile(sorted, 97.5)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]),
    errors: 0,
    timeouts: 0,
    statuses,
    note,
  };
}

async function archiveExport(ctx) {
  const pid = ctx.pid;
  const baseline = rssMiB(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
  const started = performance.now();
  let bytes = 0;
  let status;
  try {
    const res = await fetch(`${ctx.url}/api/export/archive`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    status = res.status;
    for await (const part of res.body) bytes += part.length;
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  return row(
    [ms],
    { [status]: 1 },
    `${ctx.pages.length.toLocaleString('en')} pages, ZIP ${(bytes / 2 ** 20).toFixed(1)} MiB in ${(ms / 1000).toFixed(2)} s; server RSS (all its processes) ${baseline.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB (+${(peak - baseline).toFixed(0)} MiB)`,
  );
}

async function printDocument(ctx) {
  const auth = { authorization: `Bearer ${ctx.token}` };
  const urls = [];
  for (let i = 0; i < 10; i++) {
    const form = new FormData();
    form.append('file', new Blob([png(96, i + 1)]), `figure-${i + 1}.png`);
    const res = await fetch(`${ctx.url}/api/images`, { method: 'POST', headers: auth, body: form });
    if (res.status !== 201) throw new Error(`image upload: ${res.status} ${await res.text()}`);
    urls.push((await res.json()).url);
  }
  const content = [
    'Prepared for {{customer}}.',
    ...urls.map(
      (url, i) => `## Figure ${i + 1}\n\n${ctx.corpus.paragraph([])}\n\n![Figure ${i + 1}](${url})`,
    ),
  ].join('\n\n');
  // One page per server started on the database (the scenario runs at each KB_WORKERS).
  const slug = `bench/print-10-images-${Date.now().toString(36)}`;
  const created = await fetch(`${ctx.url}/api/pages`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      slug,
      title: 'Print benchmark',
      content,
      variables: { customer: 'Default Corp' },
    }),
  });
  if (created.status !== 201) throw new Error(`page: ${created.status} ${await created.text()}`);
  const cookie = await session(ctx.url);
  const headers = { cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };
  const body = JSON.stringify({ variables: { customer: 'ACME Ltd.' } });
  const times = [];
  const statuses = {};
  let size = 0;
  for (let i = 0; i < PRINT_REQUESTS + 20; i++) {
    const started = performance.now();
    const res = await fetch(`${ctx.url}/export/preview/${slug}`, {
      method: 'POST',
      headers,
      body,
    });
    const text = await res.text();
    const ms = performance.now() - started;
    if (i < 20) continue; // warm-up
    times.push(ms);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    size = text.length;
  }
  const p95 = percentile(
    [...times].sort((a, b) => a - b),
    95,
  );
  return row(
    times,
    statuses,
    `page with 10 inlined images (document ${(size / 1024).toFixed(0)} KiB), 1 connection; target p95 < 20 ms: ${p95 < 20 ? 'met' : 'missed'}`,
  );
}

module.exports = [
  {
    key: 'archiveExport',
    name: 'POST /api/export/archive (all pages, streamed)',
    phase: 'pages',
    run: archiveExport,
  },
  {
    key: 'printDocument',
    name: 'POST /export/preview (10 images inlined)',
    phase: 'pages',
    run: printDocument,
  },
];
