'use strict';
// The co-editing benchmark (issue 30): BENCH_COLLAB_EDITORS (50) simulated editors, Node clients
// speaking the Yjs sync and awareness protocols to /collab through the console's own provider
// (y-websocket), on BENCH_COLLAB_PAGES (10) pages, each typing 5 characters a second for
// BENCH_COLLAB_SECONDS (60), while GET /api/pages/{slug} is timed; then 1,000 idle connections
// (BENCH_COLLAB_IDLE) for the memory each costs. Once on one instance (SQLite) and once across
// two behind nginx (MariaDB `kb_bench_collab`, Redis fan-out at BENCH_REDIS_URL), when nginx
// and MariaDB are there. Keystroke-to-peer latency: from the moment an editor's keystroke is
// made to the moment each other editor of the page has it applied (every client is in this
// one process, so one clock measures both ends). Run by bench/run.js (BENCH_ONLY=collab).
const { existsSync, mkdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const WebSocket = require('ws');
const Y = require('yjs');
const { WebsocketProvider } = require('y-websocket');
const { startKb, bearerToken } = require('./server');
const { startNginx } = require('./cluster-bench');

const NGINX = '/usr/sbin/nginx';
const DATABASE = 'kb_bench_collab';
const CHARS_PER_SECOND = 5;
const READS_PER_SECOND = 20;
const TARGETS = { single: 100, cluster: 200, idleMiB: 100, readP99: 50 };

function envInt(name, fallback) {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** CPU seconds (user + system) a process has used so far (Linux /proc). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** A WebSocket class that sends the bearer token with its upgrade. */
function authedSocket(token) {
  return class extends WebSocket {
    constructor(url, protocols) {
      super(url, protocols, { headers: { authorization: `Bearer ${token}` } });
    }
  };
}

async function createPages(url, token, count) {
  const slugs = [];
  for (let i = 0; i < count; i++) {
    const slug = `bench-collab/page-${i}`;
    const res = await fetch(`${url}/api/pages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug, title: `Together ${i}`, content: `# Together ${i}\n\n` }),
    });
    if (res.status !== 201) throw new Error(`create ${slug}: ${res.status}`);
    slugs.push(slug);
  }
  return slugs;
}

/** Waits until `check` holds (every 50 ms), or fails after `ms`. */
async function until(what, check, ms = 60_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The editors type for `seconds` while page reads are timed. Answers the latencies (ms), the
 * read durations (ms), the keystrokes made, the CPU seconds of `pids` and whether every page
 * converged.
 */
async function typeTogether({ url, token, slugs, editors, seconds, pids }) {
  const sent = new Map();
  const latencies = [];
  const clients = [];
  // y-websocket's provider listens for this process's exit, once per editor.
  process.setMaxListeners(editors + 20);
  for (let i = 0; i < editors; i++) {
    const doc = new Y.Doc();
    const slug = slugs[i % slugs.length];
    const provider = new WebsocketProvider(`${url.replace(/^http/, 'ws')}/collab`, slug, doc, {
      WebSocketPolyfill: authedSocket(token),
      disableBc: true,
    });
    provider.awareness.setLocalStateField('user', { name: `editor ${i}`, color: '#336699' });
    doc.on('update', (update, origin) => {
      if (origin !== provider) return;
      const now = performance.now();
      for (const struct of Y.decodeUpdate(update).structs) {
        const at = sent.get(`${struct.id.client}:${struct.id.clock}`);
        if (at !== undefined) latencies.push(now - at);
      }
    });
    clients.push({ doc, provider, slug, text: doc.getText('markdown') });
  }
  await until('editors synced', () => clients.every((c) => c.provider.synced));

  let keystrokes = 0;
  const letters = 'abcdefghijklmnopqrstuvwxyz ';
  const timers = clients.map((c, i) =>
    setTimeout(
      () => {
        c.timer = setInterval(() => {
          const clock = Y.getState(c.doc.store, c.doc.clientID);
          sent.set(`${c.doc.clientID}:${clock}`, performance.now());
          c.text.insert(c.text.length, letters[(keystrokes += 1) % letters.length]);
        }, 1000 / CHARS_PER_SECOND);
      },
      (i * 1000) / CHARS_PER_SECOND / editors,
    ),
  );

  const reads = [];
  let reading = true;
  const reader = (async () => {
    let n = 0;
    while (reading) {
      const slug = slugs[n++ % slugs.length];
      const started = performance.now();
      const res = await fetch(`${url}/api/pages/${slug}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await res.arrayBuffer();
      reads.push({ ms: performance.now() - started, ok: res.status === 200 });
      await new Promise((r) => setTimeout(r, 1000 / READS_PER_SECOND));
    }
  })();

  const cpuBefore = pids.reduce((n, pid) => n + cpuSeconds(pid), 0);
  const started = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cpu =
    (pids.reduce((n, pid) => n + cpuSeconds(pid), 0) - cpuBefore) / ((Date.now() - started) / 1000);
  timers.forEach(clearTimeout);
  clients.forEach((c) => clearInterval(c.timer));
  reading = false;
  await reader;

  // Every editor of a page ends with the same text.
  let converged = true;
  try {
    await until(
      'pages converged',
      () =>
        slugs.every((slug) => {
          const texts = clients.filter((c) => c.slug === slug).map((c) => c.text.toString());
          return texts.every((t) => t === texts[0]);
        }),
      30_000,
    );
  } catch {
    converged = false;
  }
  for (const c of clients) {
    c.provider.destroy();
    c.doc.destroy();
  }
  return { latencies, reads, keystrokes, cpu, converged };
}

/** Opens `count` idle connections spread over `slugs`; answers the RSS growth of `pids` (MiB). */
async function idleConnections({ url, token, slugs, count, pids }) {
  const before = pids.reduce((n, pid) => n + rssMiB(pid), 0);
  const sockets = [];
  for (let i = 0; i < count; i++) {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/collab/${slugs[i % slugs.length]}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    sockets.push(
      new Promise((resolve, reject) => {
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
        ws.once('unexpected-response', (_req, res) => reject(new Error(`idle: ${res.statusCode}`)));
      }),
    );
    // Not all at once: the upgrades are authenticated one by one.
    if (i % 50 === 49) await Promise.all(sockets.slice(-50));
  }
  const open = await Promise.all(sockets);
  await new Promise((r) => setTimeout(r, 5000));
  const after = pids.reduce((n, pid) => n + rssMiB(pid), 0);
  for (const ws of open) ws.terminate();
  return after - before;
}

function rowsFor(label, target, result, idleMiB, idleCount) {
  const round = (n) => Math.round(n * 10) / 10;
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const reads = result.reads.map((r) => r.ms).sort((a, b) => a - b);
  const failedReads = result.reads.filter((r) => !r.ok).length;
  const p99 = percentile(sorted, 99);
  const readP99 = percentile(reads, 99);
  return [
    {
      name: `Co-editing ${label}: keystroke-to-peer latency`,
      value: `p50 ${round(percentile(sorted, 50))} ms, p99 ${round(p99)} ms`,
      target: `p99 < ${target} ms`,
      ok: result.converged && p99 < target,
      raw: round(p99),
      unit: 'ms',
      note: `${result.keystrokes} keystrokes, ${sorted.length} deliveries to peers, ${result.converged ? 'every page converged' : 'NOT CONVERGED'}`,
    },
    {
      name: `Co-editing ${label}: kb CPU while typing`,
      value: `${Math.round(result.cpu * 100)} %`,
      target: '',
      ok: null,
      raw: round(result.cpu * 100),
      unit: '%',
      note: 'user + system CPU of the kb process(es), 100 % = one core',
    },
    {
      name: `Co-editing ${label}: GET /api/pages/{slug} while typing`,
      value: `p99 ${round(readP99)} ms`,
      target: `p99 < ${TARGETS.readP99} ms`,
      ok: failedReads === 0 && readP99 < TARGETS.readP99,
      raw: round(readP99),
      unit: 'ms',
      note: `${reads.length} reads, p50 ${round(percentile(reads, 50))} ms, failed ${failedReads}`,
    },
    {
      name: `Co-editing ${label}: memory of ${idleCount.toLocaleString('en')} idle connections`,
      value: `${round(idleMiB)} MiB`,
      target: idleCount === 1000 ? `< ${TARGETS.idleMiB} MiB` : '',
      ok: idleCount === 1000 ? idleMiB < TARGETS.idleMiB : null,
      raw: round(idleMiB),
      unit: 'MiB',
      note: `kb's resident memory after minus before, ${round((idleMiB * 1024) / idleCount)} KiB a connection`,
    },
  ];
}

/** Report rows: the co-editing scenario on one instance, then across two behind nginx. */
async function runCollabBench({ settings, workDir, mysqlUrl, mysqlAnswers, log }) {
  const editors = envInt('BENCH_COLLAB_EDITORS', 50);
  const pages = envInt('BENCH_COLLAB_PAGES', 10);
  const seconds = envInt('BENCH_COLLAB_SECONDS', settings.quick ? 10 : 60);
  const idleCount = envInt('BENCH_COLLAB_IDLE', 1000);
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  // One bench user holds every connection; the per-person and per-page caps are not measured.
  const collabEnv = {
    COLLAB_MAX_CONNECTIONS_PER_USER: '10000',
    COLLAB_MAX_CONNECTIONS_PER_PAGE: '10000',
  };
  const rows = [];

  log(`co-editing, one instance: ${editors} editors on ${pages} pages for ${seconds} s`);
  const dataDir = join(workDir, 'single');
  mkdirSync(dataDir, { recursive: true });
  const kb = await startKb({ port: settings.port + 30, dataDir, env: collabEnv });
  try {
    const token = await bearerToken(kb.url);
    const slugs = await createPages(kb.url, token, pages);
    const pids = [kb.pid];
    const result = await typeTogether({ url: kb.url, token, slugs, editors, seconds, pids });
    const idle = await idleConnections({ url: kb.url, token, slugs, count: idleCount, pids });
    rows.push(...rowsFor('on one instance', TARGETS.single, result, idle, idleCount));
  } finally {
    await kb.stop();
  }

  if (!existsSync(NGINX) || !(await mysqlAnswers())) {
    rows.push({
      name: 'Co-editing across two instances',
      value: 'skipped',
      ok: null,
      note: 'no nginx or MariaDB',
    });
    return rows;
  }
  log('co-editing, two instances behind nginx (MariaDB, Redis fan-out)');
  const { createConnection } = require('mysql2/promise');
  const admin = await createConnection(mysqlUrl);
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``);
    await admin.query(
      `CREATE DATABASE \`${DATABASE}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    const env = {
      ...collabEnv,
      DB_TYPE: 'mysql',
      DATABASE_URL: `${mysqlUrl.replace(/\/$/, '')}/${DATABASE}`,
      TRUST_PROXY: 'loopback',
      REDIS_URL: redisUrl,
    };
    const clusterDir = join(workDir, 'cluster');
    mkdirSync(clusterDir, { recursive: true });
    const ports = [settings.port + 31, settings.port + 32];
    const instances = [];
    for (const port of ports) instances.push(await startKb({ port, dataDir: clusterDir, env }));
    const nginx = await startNginx(join(workDir, 'nginx'), settings.port + 33, ports);
    try {
      const token = await bearerToken(nginx.url);
      const slugs = await createPages(nginx.url, token, pages);
      const pids = instances.map((i) => i.pid);
      const result = await typeTogether({ url: nginx.url, token, slugs, editors, seconds, pids });
      const idle = await idleConnections({ url: nginx.url, token, slugs, count: idleCount, pids });
      rows.push(
        ...rowsFor('across two instances behind nginx', TARGETS.cluster, result, idle, idleCount),
      );
    } finally {
      await nginx.stop();
      await Promise.all(instances.map((i) => i.stop()));
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``);
    await admin.end();
  }
  return rows;
}

module.exports = { runCollabBench };
