'use strict';
// `npm run bench` (scripts/bench.js builds first, then calls main()).
//
// 1. the ceiling app alone: GET /ceiling (fixed 4 KB JSON), then the same with kb's middleware
//    and a 12 KB document (a reference for what the plain ceiling leaves out);
//    and the plain ceiling again at kb's default process count (node:cluster, one per CPU);
// 2. kb on a fresh SQLite database: 10,000 pages created through POST /api/pages; then, at each
//    process count (KB_WORKERS=1, then kb's default: one per CPU), kb restarted on that
//    database for every scenario of phase "pages" and "search" (bench/scenarios/*.js);
// 3. kb stopped, 90,000 more pages written with SQL batches; at each process count kb
//    restarted for phase "search" again and phase "large" (the mixed workload) at 100,000 pages;
// 4. the import benchmark (bench/import-bench.js, KB_WORKERS=1: the strictest case for the
//    responsiveness during an import) on a fresh SQLite database and, when
//    BENCH_MYSQL_URL (default mysql://root@127.0.0.1:3306) answers, on a fresh MariaDB database
//    `kb_bench` that the bench creates and drops (BENCH_ONLY=import runs it alone);
// 5. the cluster benchmark (bench/cluster-bench.js): page reads and the mixed workload through
//    nginx at 1, 2 and 3 instances on a MariaDB database `kb_bench_cluster` (BENCH_ONLY=cluster
//    runs it alone; skipped without nginx or a MariaDB at BENCH_MYSQL_URL);
// 5b. a 1,000-page folder move (bench/move-bench.js) on a fresh SQLite database, with /healthz
//    probed during it (BENCH_ONLY=move runs it alone);
// 5c. rich content (bench/rich-bench.js): a page of 50 code blocks, 20 formulas and 5 diagrams
//    rendered and written, and reads of it against a plain page (BENCH_ONLY=rich runs it alone);
// 5d. co-editing (bench/collab-bench.js): 50 Yjs editors on 10 pages typing for 60 s
//    (BENCH_COLLAB_SECONDS), keystroke-to-peer latency, kb's CPU, page reads meanwhile and the
//    memory of 1,000 idle connections, on one instance and across two behind nginx (MariaDB,
//    Redis) (BENCH_ONLY=collab runs it alone);
// 6. the console's cold start (bench/console-bench.js, Playwright + Chromium) on a fresh SQLite
//    database (BENCH_ONLY=console runs it alone);
// 7. docs/PERFORMANCE.md and bench/.work/results.json written.
//
// BENCH_KB_WORKERS=n (or `default`) measures phases 2 and 3 at that one process count only.
// Every row carries its process count and the 1-minute load average when it started; its
// ratio is to the ceiling at the same process count, measured in the same run.
//
// Hooks: a scenario is {key, name, phase: 'pages' | 'search' | 'large', run(ctx)} in any
// bench/scenarios/*.js file (an array export); run(ctx) returns ctx.measure(requests[, options])
// or its own row {requestsPerSecond, p50, p95, p97_5, p99, max, errors, timeouts, statuses,
// note}. Import/export benchmarks go there.
const { mkdirSync, readdirSync, rmSync, writeFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const os = require('node:os');
const { Corpus } = require('./corpus');
const { measure } = require('./measure');
const { bulkAddSearchPages, seedViaApi } = require('./seed');
const { bearerToken, processCount, startCeiling, startKb } = require('./server');
const { writeReport } = require('./report');
const { runImportBench } = require('./import-bench');
const { runConsoleBench } = require('./console-bench');
const { runMoveBench } = require('./move-bench');
const { runRichBench } = require('./rich-bench');
const { runClusterBench } = require('./cluster-bench');
const { runCollabBench } = require('./collab-bench');

const ROOT = join(__dirname, '..');
const WORK = join(__dirname, '.work');

function envInt(name, fallback) {
  const raw = process.env[name];
  return raw ? Number(raw) : fallback;
}

// BENCH_QUICK=1: every scenario on small datasets for a few seconds, to check the bench itself
// in a couple of minutes; like BENCH_ONLY it leaves docs/PERFORMANCE.md alone.
const QUICK = process.env.BENCH_QUICK === '1';

const SETTINGS = {
  quick: QUICK,
  pages: envInt('BENCH_PAGES', QUICK ? 1_000 : 10_000),
  searchPages: envInt('BENCH_SEARCH_PAGES', QUICK ? 5_000 : 100_000),
  importPages: envInt('BENCH_IMPORT_PAGES', QUICK ? 500 : 10_000),
  movePages: envInt('BENCH_MOVE_PAGES', 1_000),
  clusterPages: envInt('BENCH_CLUSTER_PAGES', QUICK ? 100 : 2_000),
  connections: envInt('BENCH_CONNECTIONS', 50),
  duration: envInt('BENCH_DURATION', QUICK ? 3 : 10),
  warmup: envInt('BENCH_WARMUP', QUICK ? 1 : 2),
  port: envInt('BENCH_PORT', 3901),
  ceilingPort: envInt('BENCH_CEILING_PORT', 3902),
  only: process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : null,
  // e.g. BENCH_NODE_ARGS=--cpu-prof for profiles of the kb servers of the HTTP phases (seeding
  // and each process count; one file per process).
  nodeArgs: process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [],
  mysqlUrl: process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
  // KB_WORKERS of the HTTP phases: one process (like with like against the one-process
  // ceiling), then kb's default (one per CPU) when that is more than one.
  workers: process.env.BENCH_KB_WORKERS
    ? [
        process.env.BENCH_KB_WORKERS === 'default'
          ? 'default'
          : Number(process.env.BENCH_KB_WORKERS),
      ]
    : processCount('default') > 1
      ? [1, 'default']
      : [1],
};

const wanted = (key) => !SETTINGS.only || SETTINGS.only.includes(key);

/** Whether a MariaDB/MySQL server answers at BENCH_MYSQL_URL (a TCP connect, 2 s at most). */
function mysqlAnswers() {
  const { hostname, port } = new URL(SETTINGS.mysqlUrl);
  return new Promise((resolve) => {
    const socket = require('node:net').connect(Number(port || 3306), hostname);
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The import benchmark (bench/import-bench.js) on a fresh SQLite database, then on a fresh
 * MariaDB database `kb_bench` (created and dropped here) when one answers; rows for the report.
 */
async function runImports(imports) {
  const workDir = join(WORK, 'import');
  const attempt = async (dbType, env) => {
    const dataDir = join(workDir, `data-${dbType}`);
    mkdirSync(dataDir, { recursive: true });
    const server = await startKb({
      port: SETTINGS.port,
      dataDir,
      env,
      nodeArgs: SETTINGS.nodeArgs,
    });
    try {
      const token = await bearerToken(server.url);
      imports.push(
        ...(await runImportBench({
          baseUrl: server.url,
          token,
          workDir,
          dbType,
          serverPid: server.pid,
          pages: SETTINGS.importPages,
        })),
      );
    } catch (error) {
      console.error(error);
      imports.push({
        name: `Import benchmark (${dbType})`,
        value: 'failed',
        ok: false,
        note: error.message,
      });
    } finally {
      await server.stop();
    }
  };
  phase('import benchmark, SQLite');
  await attempt('sqlite', {});
  if (!(await mysqlAnswers())) {
    imports.push({
      name: 'Import benchmark (MariaDB)',
      value: 'skipped',
      target: '-',
      ok: null,
      note: `no server answered at ${new URL(SETTINGS.mysqlUrl).host}`,
    });
    return;
  }
  phase('import benchmark, MariaDB (database kb_bench)');
  const { createConnection } = require(join(ROOT, 'node_modules', 'mysql2', 'promise'));
  const admin = await createConnection(SETTINGS.mysqlUrl);
  try {
    await admin.query('DROP DATABASE IF EXISTS `kb_bench`');
    await admin.query(
      'CREATE DATABASE `kb_bench` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci',
    );
    await attempt('mysql', {
      DB_TYPE: 'mysql',
      DATABASE_URL: `${SETTINGS.mysqlUrl.replace(/\/$/, '')}/kb_bench`,
    });
  } finally {
    await admin.query('DROP DATABASE IF EXISTS `kb_bench`');
    await admin.end();
  }
}

/** The console benchmark on a fresh server and database; rows for the report. */
async function runConsole(rows) {
  const dataDir = join(WORK, 'console');
  mkdirSync(dataDir, { recursive: true });
  const server = await startKb({ port: SETTINGS.port, dataDir });
  try {
    rows.push(
      ...(await runConsoleBench({ url: server.url, token: await bearerToken(server.url) })),
    );
    for (const row of rows) log(`  ${row.name}: ${row.value}`);
  } catch (error) {
    console.error(error);
    rows.push({ name: 'Console benchmark', value: 'failed', ok: false, note: error.message });
  } finally {
    await server.stop();
  }
}

/** The folder-move benchmark on a fresh server and SQLite database; rows for the report. */
async function runMove(rows) {
  const dataDir = join(WORK, 'move');
  mkdirSync(dataDir, { recursive: true });
  const server = await startKb({ port: SETTINGS.port, dataDir, workers: 1 });
  try {
    rows.push(
      ...(await runMoveBench({
        baseUrl: server.url,
        token: await bearerToken(server.url),
        pages: SETTINGS.movePages,
        log,
      })),
    );
    for (const row of rows) log(`  ${row.name}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
  } catch (error) {
    console.error(error);
    rows.push({ name: 'Move benchmark', value: 'failed', ok: false, note: error.message });
  } finally {
    await server.stop();
  }
}

/** The rich-content benchmark on a fresh server and SQLite database; rows for the report. */
async function runRich(rows) {
  const dataDir = join(WORK, 'rich');
  mkdirSync(dataDir, { recursive: true });
  const server = await startKb({ port: SETTINGS.port, dataDir, workers: 1 });
  try {
    rows.push(
      ...(await runRichBench({
        baseUrl: server.url,
        token: await bearerToken(server.url),
        settings: SETTINGS,
        log,
      })),
    );
    for (const row of rows) log(`  ${row.name}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
  } catch (error) {
    console.error(error);
    rows.push({ name: 'Rich content benchmark', value: 'failed', ok: false, note: error.message });
  } finally {
    await server.stop();
  }
}

function loadScenarios() {
  const dir = join(__dirname, 'scenarios');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort((a, b) => (a === 'pages.js' ? -1 : b === 'pages.js' ? 1 : a.localeCompare(b)));
  return files
    .flatMap((f) => require(join(dir, f)))
    .filter((s) => !SETTINGS.only || SETTINGS.only.includes(s.key));
}

function machine() {
  const cpus = os.cpus();
  return {
    nproc: os.availableParallelism ? os.availableParallelism() : cpus.length,
    cpu: cpus[0]?.model ?? 'unknown',
    memoryGiB: (os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    sqlite: require(join(ROOT, 'node_modules', 'better-sqlite3'))(':memory:')
      .prepare('SELECT sqlite_version() AS v')
      .get().v,
  };
}

function log(message) {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/**
 * The search index's size (issue 32: its growth with the CJK/Thai grams reported): the FTS5
 * table's pages, and the bytes of its grams columns (what the grams added), in MiB.
 */
function searchIndexSize(sqlitePath) {
  const Database = require(join(ROOT, 'node_modules', 'better-sqlite3'));
  const db = new Database(sqlitePath, { readonly: true });
  try {
    const mib = (n) => Math.round((Number(n ?? 0) / 2 ** 20) * 10) / 10;
    const index = db
      .prepare("SELECT SUM(pgsize) AS n FROM dbstat WHERE name LIKE 'page_search%'")
      .get().n;
    const text = db
      .prepare(
        'SELECT SUM(LENGTH(CAST(title AS BLOB)) + LENGTH(CAST(body AS BLOB)) + LENGTH(CAST(tags AS BLOB))) AS text, ' +
          'SUM(LENGTH(CAST(title_grams AS BLOB)) + LENGTH(CAST(body_grams AS BLOB))) AS grams FROM page_search',
      )
      .get();
    return { indexMiB: mib(index), textMiB: mib(text.text), gramsMiB: mib(text.grams) };
  } catch (error) {
    return { error: String(error) };
  } finally {
    db.close();
  }
}

/** The run's phases as they start: {label, at (s since the start), load (1-minute average)}. */
const phases = [];
let runStarted = Date.now();

function phase(label) {
  phases.push({ label, at: (Date.now() - runStarted) / 1000, load: os.loadavg()[0] });
  log(`phase: ${label} (load average ${os.loadavg()[0].toFixed(1)})`);
}

/** `1`, or `2 (default)`: a row's process count as the report shows it. */
function workersLabel(workers) {
  return workers === 'default' ? `${processCount('default')} (default)` : String(workers);
}

function logRow(row) {
  const ms = (n) => (Number.isFinite(n) ? n.toFixed(1) : '-');
  const times = (r) =>
    `${r.requestsPerSecond.toFixed(0)} req/s, p50 ${ms(r.p50)}, p95 ${ms(r.p95)}, p99 ${ms(r.p99)}, max ${ms(r.max)} ms, statuses ${JSON.stringify(r.statuses)}`;
  log(
    `  ${times(row)}, socket errors ${row.errors}, timeouts ${row.timeouts}, loop p99 ${row.loopP99 == null ? '-' : ms(row.loopP99)} ms`,
  );
  for (const [kind, c] of Object.entries(row.classes ?? {}))
    log(`    ${kind}: ${times(c)}, timeouts ${c.timeouts}`);
}

async function runPhase(phase, scenarios, ctx, label, results) {
  for (const scenario of scenarios.filter((s) => s.phase === phase)) {
    log(`${scenario.name} (${label}, KB_WORKERS=${ctx.workers})...`);
    const load = os.loadavg()[0];
    let row;
    try {
      row = await scenario.run(ctx);
    } catch (error) {
      // One broken scenario must not cost the whole run: it shows up as a row with the error.
      console.error(error);
      row = { requestsPerSecond: NaN, statuses: {}, errors: 1, note: `failed: ${error.message}` };
    }
    results.push({
      key: scenario.key,
      name: scenario.name,
      dataset: label,
      workers: workersLabel(ctx.workers),
      processes: ctx.processes,
      load,
      ...row,
    });
    logRow(row);
  }
}

function contextFor(server, workers, token, pages, slugs, corpus) {
  return {
    url: server.url,
    pid: server.pid,
    workers,
    processes: server.processes,
    token,
    pages,
    slugs,
    corpus,
    settings: SETTINGS,
    measure: (requests, options = {}) =>
      measure({
        url: server.url,
        requests,
        headers: { authorization: `Bearer ${token}` },
        connections: options.connections ?? SETTINGS.connections,
        duration: options.duration ?? SETTINGS.duration,
        warmup: options.warmup ?? SETTINGS.warmup,
        processes: server.processes,
        byClass: options.byClass ?? false,
      }),
  };
}

/** kb on `dataDir` at each process count of SETTINGS.workers in turn: `run(ctx)` for each. */
async function atEachProcessCount(label, dataDir, token, pages, slugs, corpus, run) {
  for (const workers of SETTINGS.workers) {
    phase(`${label}, KB_WORKERS=${workersLabel(workers)}`);
    const kb = await startKb({
      port: SETTINGS.port,
      dataDir,
      workers,
      nodeArgs: SETTINGS.nodeArgs,
    });
    try {
      await run(
        contextFor(kb, workers, token ?? (await bearerToken(kb.url)), pages, slugs, corpus),
      );
    } finally {
      await kb.stop();
    }
  }
}

async function runCeilings(results) {
  // The ceiling, and the same app with what kb puts in front of every handler and a body the size
  // of a page read's (which carries Markdown and HTML): the gap between the two is not kb's code.
  // The plain ceiling also runs at every other process count measured, so rows at kb's default
  // compare with a ceiling at as many processes.
  const counts = [...new Set(SETTINGS.workers.map(processCount))];
  const ceilings = [
    ...[...new Set([1, ...counts])].map((processes) => ({
      key: 'ceiling',
      name: 'Ceiling: minimal NestJS, fixed 4 KB JSON',
      processes,
      env: {},
    })),
    {
      key: 'ceilingMiddleware',
      name: 'Ceiling + kb middleware (request id, helmet, cookie-parser, JSON parser), 12 KB JSON',
      processes: 1,
      env: { CEILING_MIDDLEWARE: '1', CEILING_BYTES: '12288' },
    },
  ];
  for (const variant of ceilings) {
    if (variant.key !== 'ceiling' && !wanted(variant.key)) continue;
    log(`${variant.name} (${variant.processes} process(es))...`);
    const load = os.loadavg()[0];
    const ceilingServer = await startCeiling({
      port: SETTINGS.ceilingPort,
      env: variant.env,
      workers: variant.processes,
    });
    try {
      const row = await measure({
        url: `${ceilingServer.url}/ceiling`,
        connections: SETTINGS.connections,
        duration: SETTINGS.duration,
        warmup: SETTINGS.warmup,
      });
      results.push({
        key: variant.key,
        name: variant.name,
        dataset: '-',
        workers: String(variant.processes),
        processes: variant.processes,
        load,
        ...row,
      });
      logRow(row);
    } finally {
      await ceilingServer.stop();
    }
  }
}

async function runHttp(scenarios, results, seeding, corpus, dataDir) {
  phase('ceilings');
  await runCeilings(results);

  // The 10,000 pages, through the API of one kb process.
  let pages;
  let token;
  const kb = await startKb({ port: SETTINGS.port, dataDir, nodeArgs: SETTINGS.nodeArgs });
  try {
    token = await bearerToken(kb.url);
    phase(`seeding ${SETTINGS.pages} pages through POST /api/pages`);
    const t = Date.now();
    pages = await seedViaApi({
      url: kb.url,
      token,
      corpus,
      count: SETTINGS.pages,
      onProgress: (n) => log(`  ${n} pages`),
    });
    seeding.apiSeconds = (Date.now() - t) / 1000;
    seeding.apiPages = SETTINGS.pages;
    seeding.averageMarkdownBytes = Math.round(
      pages.reduce((n, p) => n + Buffer.byteLength(p.content), 0) / pages.length,
    );
    log(`  done in ${seeding.apiSeconds.toFixed(1)} s`);
  } finally {
    await kb.stop();
  }

  const extra = SETTINGS.searchPages - SETTINGS.pages;
  const small = `${SETTINGS.pages.toLocaleString('en')} pages`;
  const slugs = pages.map((p) => p.slug);
  await atEachProcessCount(small, dataDir, token, pages, slugs, corpus, async (ctx) => {
    await runPhase('pages', scenarios, ctx, small, results);
    await runPhase('search', scenarios, ctx, small, results);
    if (extra <= 0) await runPhase('large', scenarios, ctx, small, results);
  });

  if (extra > 0 && scenarios.some((s) => s.phase === 'search' || s.phase === 'large')) {
    phase(`adding ${extra} pages with SQL batches`);
    const t = Date.now();
    slugs.push(
      ...bulkAddSearchPages({
        root: ROOT,
        sqlitePath: join(dataDir, 'kb.sqlite'),
        corpus,
        count: extra,
        startIndex: SETTINGS.pages,
      }),
    );
    seeding.bulkSeconds = (Date.now() - t) / 1000;
    seeding.bulkPages = extra;
    log(`  done in ${seeding.bulkSeconds.toFixed(1)} s`);
    const large = `${SETTINGS.searchPages.toLocaleString('en')} pages`;
    await atEachProcessCount(large, dataDir, token, pages, slugs, corpus, async (ctx) => {
      await runPhase('search', scenarios, ctx, large, results);
      await runPhase('large', scenarios, ctx, large, results);
    });
  }
  seeding.databaseMiB = Math.round(statSync(join(dataDir, 'kb.sqlite')).size / 2 ** 20);
  seeding.searchIndex = searchIndexSize(join(dataDir, 'kb.sqlite'));
}

async function main() {
  runStarted = Date.now();
  const loadBefore = os.loadavg()[0];
  log(`KB_WORKERS of the HTTP phases: ${SETTINGS.workers.map(workersLabel).join(', ')}`);
  rmSync(WORK, { recursive: true, force: true });
  const dataDir = join(WORK, 'data');
  mkdirSync(dataDir, { recursive: true });
  const scenarios = loadScenarios();
  const results = [];
  const seeding = {};
  const corpus = new Corpus(42);

  // BENCH_ONLY=import runs the import benchmark alone.
  if (scenarios.length > 0) await runHttp(scenarios, results, seeding, corpus, dataDir);

  const imports = [];
  if (wanted('import')) await runImports(imports);

  const cluster = [];
  if (wanted('cluster')) {
    phase('cluster benchmark');
    if (await mysqlAnswers()) {
      cluster.push(
        ...(await runClusterBench({
          settings: SETTINGS,
          corpus,
          workDir: join(WORK, 'cluster'),
          mysqlUrl: SETTINGS.mysqlUrl,
          log,
        }).catch((error) => {
          console.error(error);
          return [{ name: 'Cluster benchmark', value: 'failed', ok: false, note: error.message }];
        })),
      );
    } else {
      cluster.push({ name: 'Cluster benchmark', value: 'skipped', ok: null, note: 'no MariaDB' });
    }
  }

  const moves = [];
  if (wanted('move')) {
    phase('move benchmark');
    await runMove(moves);
  }

  const rich = [];
  if (wanted('rich')) {
    phase('rich content benchmark');
    await runRich(rich);
  }

  const collab = [];
  if (wanted('collab')) {
    phase('co-editing benchmark');
    collab.push(
      ...(await runCollabBench({
        settings: SETTINGS,
        workDir: join(WORK, 'collab'),
        mysqlUrl: SETTINGS.mysqlUrl,
        mysqlAnswers,
        log,
      }).catch((error) => {
        console.error(error);
        return [{ name: 'Co-editing benchmark', value: 'failed', ok: false, note: error.message }];
      })),
    );
  }

  const consoleRows = [];
  if (wanted('console')) {
    phase('console');
    await runConsole(consoleRows);
  }

  const report = {
    date: new Date().toISOString(),
    machine: { ...machine(), loadAverage: [loadBefore, os.loadavg()[0]] },
    phases,
    settings: SETTINGS,
    seeding,
    results,
    imports,
    cluster,
    moves,
    rich,
    collab,
    console: consoleRows,
    totalSeconds: (Date.now() - runStarted) / 1000,
  };
  writeFileSync(join(WORK, 'results.json'), JSON.stringify(report, null, 2));
  const partial = SETTINGS.only || SETTINGS.quick;
  if (!partial) writeReport(report, join(ROOT, 'docs', 'PERFORMANCE.md'));
  log(
    `done in ${report.totalSeconds.toFixed(0)} s; ${partial ? 'partial or quick run: docs/PERFORMANCE.md left alone' : 'docs/PERFORMANCE.md written'}`,
  );
}

module.exports = { main, SETTINGS };
