'use strict';
// Import benchmark (issue 5, item 8), for `npm run bench` to call against a running kb server:
//
//   const { runImportBench } = require('./import-bench');
//   const rows = await runImportBench({ baseUrl, token, workDir, dbType, serverPid });
//
// 1. a generated Markdown ZIP of 10,000 pages (~50 MiB uncompressed, 100 folders of 100 pages,
//    links between pages, 300 small PNG images referenced by relative paths) is POSTed to
//    /api/import (format=markdown, under a fresh prefix so nothing is replaced) with the admin
//    bearer token: wall time, and the server's peak RSS (VmHWM of `serverPid`, plus the highest
//    VmRSS sampled during the import, since VmHWM also remembers earlier peaks);
// 2. the same archive as an import job (issue 12: async=true, then the job's event stream to its
//    final state, under another fresh prefix): time from upload to report, then the synchronous
//    route once more; the job's added cost is compared with the mean of the two synchronous
//    runs around it (the database grows by one archive per run, so sync-job-sync brackets that
//    growth). The synchronous run before the job is a second one: the first, into an empty
//    database, is ~20% faster than any later one, which the mean would not cancel;
// 3. a 150 MiB ZIP bomb whose headers understate its size (only the inflated bytes can stop
//    it) and the same bomb with honest headers: time until the 413 arrives.
// During the four imports of 1. and 2., GET /healthz and GET of a page are sent every 50 ms
// (on schedule, whether or not the previous ones answered, so a server that stops answering
// shows as many slow answers): their p99 is the responsiveness during an import (issue 11).
// Returns rows {name, value, target, ok, raw, unit, note}. Targets (issue 5): import under 20 s
// on SQLite, peak RSS under 400 MiB, ZIP bomb rejected in under 2 s; (issue 12) the job API
// adds under 5 % to the synchronous import; (issue 11) both probes' p99 under 50 ms. `pages`
// (default 10,000) shrinks the archive for BENCH_QUICK.
const { mkdirSync, readFileSync, writeFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { crc32, deflateRawSync, deflateSync } = require('node:zlib');
const { zipSync } = require('fflate');
const { eventLoopDelayP99, latencyRow, startLoopWindow } = require('./measure');
// Deterministic pseudo-random numbers, so every run imports the same archive.
const { prng: random } = require('./corpus');

const MIB = 1024 * 1024;
const PAGES = 10_000;
const PAGES_PER_FOLDER = 100;
const MAX_IMAGES = 300;
const PAGE_BYTES = 5 * 1024;
const BOMB_BYTES = 150 * MIB;
const BOMB_RUNS = 3;

const WORDS = (
  'the a of to and in is that for it as with was on be by this are or from at which an have ' +
  'page import export search index cluster deploy config service database token session ' +
  'review owner group release handbook policy reference install upgrade backup restore ' +
  'network storage latency memory request response header schema migration transaction'
).split(' ');

function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A small, valid, unique RGB PNG (16×16 noise, well under 1 KiB). */
function png(seed) {
  const size = 16;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 2;
  const next = random(seed + 1);
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let i = 0; i < raw.length; i++)
    raw[i] = i % (size * 3 + 1) === 0 ? 0 : Math.floor(next() * 256);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const folderOf = (n) => `section-${String(Math.floor(n / PAGES_PER_FOLDER)).padStart(2, '0')}`;
const fileOf = (n) => `page-${String(n).padStart(5, '0')}.md`;

/** The benchmark archive of `pages` pages: {zip, uncompressedBytes, pages, images, links}. */
function buildArchive(pages = PAGES) {
  const IMAGES = Math.min(MAX_IMAGES, Math.ceil(pages / 10));
  const next = random(42);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const files = {};
  let uncompressed = 0;
  let links = 0;
  let imageRefs = 0;
  for (let i = 0; i < IMAGES; i++) {
    const data = png(i);
    files[`images/img-${String(i).padStart(3, '0')}.png`] = data;
    uncompressed += data.length;
  }
  for (let n = 0; n < pages; n++) {
    const parts = [`# Page ${n}: ${pick(WORDS)} ${pick(WORDS)}`, ''];
    // Two links: one to a page of the same folder, one to another folder (relative paths).
    const same = Math.min(
      pages - 1,
      n - (n % PAGES_PER_FOLDER) + Math.floor(next() * PAGES_PER_FOLDER),
    );
    const other = Math.floor(next() * pages);
    parts.push(
      `See [page ${same}](${fileOf(same)}) and [page ${other}](../${folderOf(other)}/${fileOf(other)}#top).`,
      '',
    );
    links += 2;
    if (n % 10 === 0) {
      const image = (n / 10) % IMAGES;
      parts.push(`![diagram ${image}](../images/img-${String(image).padStart(3, '0')}.png)`, '');
      imageRefs++;
    }
    let text = parts.join('\n');
    while (text.length < PAGE_BYTES) {
      const sentence = [];
      for (let w = 0; w < 12; w++) sentence.push(pick(WORDS));
      text += `${sentence.join(' ')}.${next() < 0.15 ? '\n\n' : ' '}`;
    }
    const data = Buffer.from(text);
    files[`${folderOf(n)}/${fileOf(n)}`] = data;
    uncompressed += data.length;
  }
  const entries = {};
  for (const [path, data] of Object.entries(files)) entries[path] = new Uint8Array(data);
  const zip = Buffer.from(zipSync(entries, { level: 6 }));
  return { zip, uncompressedBytes: uncompressed, pages, images: IMAGES, links, imageRefs };
}

/** A one-entry ZIP around an already deflated stream that declares `declaredSize`. */
function deflatedZip(name, deflated, declaredSize, crc) {
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(deflated.length, 18);
  local.writeUInt32LE(declaredSize, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(deflated.length, 20);
  central.writeUInt32LE(declaredSize, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(local.length + nameBytes.length + deflated.length, 16);
  return Buffer.concat([local, nameBytes, deflated, central, nameBytes, end]);
}

function memoryMiB(pid, field) {
  if (!pid) return NaN;
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

async function postImport(baseUrl, token, fields, name, data) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('files', new Blob([data], { type: 'application/zip' }), name);
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - started };
}

/**
 * POST /api/import with async=true, then the job's event stream (GET .../events) read to its
 * end: the stream closes after the `state` event with the finished job. Answers the finished
 * job and the time from the start of the upload to that last event.
 */
async function runImportJob(baseUrl, token, fields, name, data) {
  const started = performance.now();
  const accepted = await postImport(baseUrl, token, { ...fields, async: 'true' }, name, data);
  if (accepted.status !== 202)
    return { status: accepted.status, body: accepted.body, ms: accepted.ms, job: null };
  const { id } = JSON.parse(accepted.body);
  const res = await fetch(`${baseUrl}/api/import/jobs/${id}/events`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
  });
  const stream = await res.text();
  const ms = performance.now() - started;
  let job = null;
  for (const block of stream.split('\n\n')) {
    const lines = block.split('\n');
    if (!lines.includes('event: state')) continue;
    const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
    job = JSON.parse(data.join('\n'));
  }
  return { status: res.status, body: stream, ms, job };
}

/** Probe interval (ms) and the responsiveness target (p99, ms) during an import. */
const PROBE_MS = 50;
const PROBE_P99_MS = 50;

/**
 * GET of each of `paths` every PROBE_MS while running (between start() and stop()), each answer
 * timed from its own scheduled send; stop() waits for the answers still due.
 */
class Prober {
  constructor(baseUrl, token, paths) {
    this.baseUrl = baseUrl;
    this.headers = { authorization: `Bearer ${token}` };
    this.samples = Object.fromEntries(paths.map((path) => [path, { times: [], failed: 0 }]));
    this.pending = new Set();
    this.ms = 0;
  }

  start() {
    this.startedAt = performance.now();
    this.timer = setInterval(() => {
      for (const path of Object.keys(this.samples)) this.probe(path);
    }, PROBE_MS);
  }

  probe(path) {
    const sample = this.samples[path];
    const sent = performance.now();
    const done = fetch(`${this.baseUrl}${path}`, {
      headers: this.headers,
      signal: AbortSignal.timeout(60_000),
    })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.ok) sample.times.push(performance.now() - sent);
        else sample.failed += 1;
      })
      .catch(() => (sample.failed += 1))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  async stop() {
    clearInterval(this.timer);
    this.ms += performance.now() - this.startedAt;
    await Promise.all(this.pending);
  }

  /** {path: {p50, p95, p99, max, total, failed}}. */
  results() {
    return Object.fromEntries(
      Object.entries(this.samples).map(([path, { times, failed }]) => [
        path,
        { ...latencyRow(times, this.ms / 1000), failed },
      ]),
    );
  }
}

/** A page to read while importing (a fresh database has none). */
async function createProbePage(baseUrl, token) {
  const slug = `bench-probe/page-${Date.now().toString(36)}`;
  const res = await fetch(`${baseUrl}/api/pages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      slug,
      title: 'Probe page',
      content: `# Probe\n\n${WORDS.join(' ')}\n`.repeat(10),
    }),
  });
  if (res.status !== 201) throw new Error(`probe page: ${res.status} ${await res.text()}`);
  return `/api/pages/${slug}`;
}

/** The report rows of the probes: one per path, p99 against PROBE_P99_MS. */
function responsivenessRows(prober, paths, label, db, loopP99) {
  const results = prober.results();
  return paths.map(({ path, name }, i) => {
    const r = results[path];
    const measured = r.total > 0;
    return {
      name: `${name} every ${PROBE_MS} ms during ${label} imports (${db})`,
      value: measured ? `p99 ${r.p99.toFixed(1)} ms` : 'n/a',
      target: `p99 < ${PROBE_P99_MS} ms`,
      ok: measured ? r.p99 < PROBE_P99_MS && r.failed === 0 : null,
      raw: measured ? round(r.p99) : null,
      unit: 'ms',
      note:
        `${r.total} answers over the four imports (synchronous, synchronous, job, synchronous), ` +
        `p50 ${round(r.p50)} ms, p95 ${round(r.p95)} ms, max ${round(r.max)} ms, failed ${r.failed}` +
        (i === 0 && loopP99 != null
          ? `; server event-loop delay p99 during the imports ${loopP99.toFixed(1)} ms`
          : ''),
    };
  });
}

const round = (n, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

/**
 * Runs the import benchmark against a running server. `token`: an admin's personal access
 * token; `workDir`: where the generated archive is cached (`import-bench.zip`); `dbType`:
 * 'sqlite' | 'mysql' (labels and the SQLite-only time target); `serverPid`: the kb server's
 * process id for memory (optional: without it the RSS rows say n/a).
 */
async function runImportBench({
  baseUrl,
  token,
  workDir,
  dbType = 'sqlite',
  serverPid = null,
  pages = PAGES,
}) {
  const log = (message) =>
    console.log(`[import-bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
  mkdirSync(workDir, { recursive: true });
  const rows = [];
  const db = dbType === 'mysql' ? 'MariaDB' : 'SQLite';

  // The archive: generated once per workDir (deterministic), so repeated runs skip the work.
  const suffix = pages === PAGES ? '' : `-${pages}`;
  const cache = join(workDir, `import-bench${suffix}.zip`);
  const metaPath = join(workDir, `import-bench${suffix}.json`);
  let archive;
  if (existsSync(cache) && existsSync(metaPath)) {
    archive = { ...JSON.parse(readFileSync(metaPath, 'utf8')), zip: readFileSync(cache) };
  } else {
    log(`generating ${pages} pages and their images...`);
    const built = buildArchive(pages);
    writeFileSync(cache, built.zip);
    const { zip: _zip, ...meta } = built;
    writeFileSync(metaPath, JSON.stringify(meta));
    archive = built;
  }
  log(
    `archive: ${(archive.zip.length / MIB).toFixed(1)} MiB compressed, ${(archive.uncompressedBytes / MIB).toFixed(1)} MiB uncompressed`,
  );
  const probes = [
    { path: '/healthz', name: 'GET /healthz' },
    { path: await createProbePage(baseUrl, token), name: 'GET /api/pages/{slug}' },
  ];
  const prober = new Prober(
    baseUrl,
    token,
    probes.map((p) => p.path),
  );
  /** `run()` with the probes running (and the server's event-loop window covering them). */
  const probed = async (run) => {
    prober.start();
    try {
      return await run();
    } finally {
      await prober.stop();
    }
  };
  await startLoopWindow(baseUrl, 1);

  // 1. The import, sampling the server's memory while it runs.
  const baseline = memoryMiB(serverPid, 'VmRSS');
  let sampledPeak = baseline;
  const sampler = setInterval(() => {
    const rss = memoryMiB(serverPid, 'VmRSS');
    if (rss > sampledPeak) sampledPeak = rss;
  }, 50);
  const prefix = `bench-import-${Date.now().toString(36)}`;
  log(`POST /api/import (${db}, prefix ${prefix})...`);
  let result;
  try {
    result = await probed(() =>
      postImport(baseUrl, token, { format: 'markdown', prefix }, 'bench.zip', archive.zip),
    );
  } finally {
    clearInterval(sampler);
  }
  const hwm = memoryMiB(serverPid, 'VmHWM');
  let report = null;
  try {
    report = JSON.parse(result.body);
  } catch {
    // reported below
  }
  const imported = result.status === 200 && report?.counts?.created === pages;
  const note = imported
    ? `${report.counts.created} pages, ${report.counts.images} images, ${report.counts.unresolvedLinks} unresolved links; ` +
      `${(archive.zip.length / MIB).toFixed(1)} MiB ZIP, ${(archive.uncompressedBytes / MIB).toFixed(1)} MiB uncompressed`
    : `HTTP ${result.status}: ${result.body.slice(0, 300)}`;
  log(`  ${result.status} in ${(result.ms / 1000).toFixed(2)} s; ${note}`);
  const seconds = result.ms / 1000;
  const label = `${pages.toLocaleString('en')}-page`;
  rows.push({
    name: `Import of a ${label} Markdown ZIP (${db})`,
    value: imported ? `${seconds.toFixed(2)} s` : 'failed',
    target: dbType === 'mysql' ? 'reported (20 s target is for SQLite)' : '< 20 s',
    ok: imported && (dbType === 'mysql' || pages !== PAGES || seconds < 20),
    raw: round(seconds, 2),
    unit: 's',
    note,
  });
  rows.push({
    name: `Server peak RSS, ${label} import (${db})`,
    value: Number.isFinite(hwm) ? `${hwm.toFixed(0)} MiB` : 'n/a',
    target: '< 400 MiB',
    ok: Number.isFinite(hwm) ? hwm < 400 : null,
    raw: round(hwm),
    unit: 'MiB',
    note: Number.isFinite(hwm)
      ? `VmHWM (process lifetime peak); highest VmRSS sampled during the import ${sampledPeak.toFixed(0)} MiB, before it ${baseline.toFixed(0)} MiB`
      : 'no serverPid given',
  });

  // 2. The same import as a job, from upload to the report in its final state event, between
  // two more synchronous imports (into a database that already holds pages, like the job's).
  /** The archive imported synchronously once more, under `prefix-<when>`, with the probes. */
  const importAgain = async (when) => {
    log(`POST /api/import again, ${when} the job (${db}, synchronous)...`);
    const res = await probed(() =>
      postImport(
        baseUrl,
        token,
        { format: 'markdown', prefix: `${prefix}-${when}` },
        'bench.zip',
        archive.zip,
      ),
    );
    log(`  ${res.status} in ${(res.ms / 1000).toFixed(2)} s`);
    return { ...res, done: res.status === 200 && JSON.parse(res.body)?.counts?.created === pages };
  };
  const before = await importAgain('before');
  log(`POST /api/import async=true, then the job's events (${db})...`);
  const job = await probed(() =>
    runImportJob(
      baseUrl,
      token,
      { format: 'markdown', prefix: `${prefix}-job` },
      'bench.zip',
      archive.zip,
    ),
  );
  const jobDone = job.job?.state === 'succeeded' && job.job.report?.counts?.created === pages;
  log(
    `  job ${job.job?.state ?? `HTTP ${job.status}`} in ${(job.ms / 1000).toFixed(2)} s` +
      (jobDone ? '' : `: ${job.body.slice(0, 300)}`),
  );
  const again = await importAgain('after');
  const loopP99 = await eventLoopDelayP99(baseUrl);
  const syncMean = (before.ms + again.ms) / 2;
  const added = ((job.ms - syncMean) / syncMean) * 100;
  const measured = before.done && jobDone && again.done;
  rows.push({
    name: `Import job of a ${label} Markdown ZIP, upload to report (${db})`,
    value: jobDone ? `${(job.ms / 1000).toFixed(2)} s` : 'failed',
    target: 'reported',
    ok: jobDone,
    raw: round(job.ms / 1000, 2),
    unit: 's',
    note: jobDone
      ? `POST /api/import async=true (202), then GET /api/import/jobs/{id}/events to its final state event; ` +
        `${job.job.report.counts.created} pages`
      : `${job.job?.state ?? `HTTP ${job.status}`}: ${job.body.slice(0, 300)}`,
  });
  rows.push({
    name: `Import job's added cost over the synchronous route (${db})`,
    value: measured ? `${added >= 0 ? '+' : ''}${added.toFixed(1)} %` : 'n/a',
    target: '< 5 %',
    ok: measured ? added < 5 : null,
    raw: measured ? round(added, 1) : null,
    unit: '%',
    note: measured
      ? `job ${(job.ms / 1000).toFixed(2)} s against the mean ${(syncMean / 1000).toFixed(2)} s of the synchronous imports before (${(before.ms / 1000).toFixed(2)} s) and after it (${(again.ms / 1000).toFixed(2)} s)`
      : 'an import failed',
  });

  rows.push(...responsivenessRows(prober, probes, label, db, loopP99));
  for (const row of rows.slice(-probes.length)) log(`  ${row.name}: ${row.value}; ${row.note}`);

  // 3. ZIP bombs: 150 MiB of zeros (about 150 KiB deflated).
  const zeros = Buffer.alloc(BOMB_BYTES);
  const deflated = deflateRawSync(zeros, { level: 1 });
  const crc = crc32(zeros) >>> 0;
  const bombs = [
    ['understated sizes', deflatedZip('zeros.md', deflated, 1024, crc)],
    ['honest sizes', deflatedZip('zeros.md', deflated, BOMB_BYTES, crc)],
  ];
  for (const [label, bomb] of bombs) {
    const times = [];
    const statuses = new Set();
    let peak = memoryMiB(serverPid, 'VmRSS');
    const before = peak;
    const sample = setInterval(() => {
      const rss = memoryMiB(serverPid, 'VmRSS');
      if (rss > peak) peak = rss;
    }, 20);
    try {
      for (let run = 0; run < BOMB_RUNS; run++) {
        const res = await postImport(baseUrl, token, { format: 'markdown' }, 'bomb.zip', bomb);
        statuses.add(res.status);
        times.push(res.ms);
      }
    } finally {
      clearInterval(sample);
    }
    const worst = Math.max(...times);
    const rejected = statuses.size === 1 && statuses.has(413);
    log(
      `  bomb (${label}): ${[...statuses].join(',')} in ${times.map((t) => t.toFixed(0)).join(', ')} ms`,
    );
    rows.push({
      name: `ZIP bomb rejection, 150 MiB ${label} (${db})`,
      value: rejected ? `${(worst / 1000).toFixed(3)} s` : 'not rejected',
      target: '< 2 s, 413',
      ok: rejected && worst < 2000,
      raw: round(worst / 1000, 3),
      unit: 's',
      note:
        `worst of ${BOMB_RUNS} (${times.map((t) => t.toFixed(0)).join(', ')} ms), ${(bomb.length / 1024).toFixed(0)} KiB upload; ` +
        `server RSS ${Number.isFinite(before) ? `${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB` : 'n/a'}`,
    });
  }
  return rows;
}

module.exports = { runImportBench, buildArchive, Prober, PROBE_MS, PROBE_P99_MS };
