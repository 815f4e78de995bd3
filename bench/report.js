'use strict';
// Writes docs/PERFORMANCE.md from a run's results. The analysis (why a target is missed, what
// to do next) is kept by hand in bench/analysis.md and copied in, so the numbers and the
// reasoning sit in one document.
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '-');

/** The mixed workload's classes in the order of bench/scenarios/mixed.js. */
const MIXED_ORDER = ['read', 'search', 'list', 'update'];

function statusText(statuses) {
  return (
    Object.entries(statuses ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status}: ${int(count)}`)
      .join(', ') || '-'
  );
}

/** Socket errors / timeouts (autocannon's, 10 s): shown on every row, 0 included. */
const failures = (row) => `${int(row.errors ?? 0)} / ${int(row.timeouts ?? 0)}`;

/**
 * The ceiling a row is compared with: the plain ceiling at the row's process count, measured
 * in the same run (a ceiling at several processes is compared with the one-process ceiling).
 */
function ceilingFor(results, row) {
  const ceilings = results.filter((r) => r.key === 'ceiling');
  const single = ceilings.find((r) => r.processes === 1);
  if (row.key === 'ceiling') return row.processes === 1 ? row : single;
  return ceilings.find((r) => r.processes === row.processes) ?? single;
}

function ratioText(results, row) {
  const ceiling = ceilingFor(results, row);
  if (!ceiling) return '-';
  return `${fmt((row.requestsPerSecond / ceiling.requestsPerSecond) * 100, 0)}%`;
}

/** The process counts measured, in run order: `1`, `2 (default)`. */
function processModes(results) {
  return [...new Set(results.filter((r) => !r.key.startsWith('ceiling')).map((r) => r.workers))];
}

/**
 * Targets at one process count (`workers` as the rows carry it): [name, value, met (null: a
 * reference), the row it was read from].
 */
function targetsAt(results, workers, single) {
  const at = results.filter((r) => r.workers === workers && !r.key.startsWith('ceiling'));
  const last = (key) => at.filter((r) => r.key === key).pop();
  const first = (key) => at.find((r) => r.key === key);
  const tag = `KB_WORKERS=${workers}`;
  const rows = [];
  const add = (name, value, met, source) => rows.push([name, value, met, source]);
  const read = first('pageRead');
  if (read) {
    const ceiling = ceilingFor(results, read);
    const ratio = read.requestsPerSecond / ceiling.requestsPerSecond;
    // The read targets are for one process against the one-process ceiling (like with like);
    // at more processes the same figures are shown against the ceiling at as many.
    const reference = single ? '' : '; reference';
    add(
      `Page read ≥ 60% of the ceiling (${tag}${single ? '' : `, ceiling at ${ceiling.processes} processes`}${reference})`,
      `${fmt(ratio * 100, 0)}%`,
      single ? ratio >= 0.6 : null,
      read,
    );
    add(
      `Page read p99 < 25 ms (${tag}${reference})`,
      `${fmt(read.p99)} ms`,
      single ? read.p99 < 25 : null,
      read,
    );
    const framed = results.find((r) => r.key === 'ceilingMiddleware');
    if (framed && single)
      add(
        'Page read vs the ceiling with kb middleware and a 12 KB body (reference, no target)',
        `${fmt((read.requestsPerSecond / framed.requestsPerSecond) * 100, 0)}%`,
        null,
        read,
      );
  }
  const search = last('search');
  if (search) {
    const where = `${search.dataset}, 50 connections, ${tag}`;
    add(`Search p95 < 50 ms (${where})`, `${fmt(search.p95)} ms`, search.p95 < 50, search);
    add(
      `Search: no socket errors or timeouts (${where})`,
      failures(search),
      !search.errors && !search.timeouts,
      search,
    );
  }
  const suggest = last('suggest');
  if (suggest) {
    const where = `${suggest.dataset}, 50 connections, ${tag}`;
    add(`Suggestions p95 < 20 ms (${where})`, `${fmt(suggest.p95)} ms`, suggest.p95 < 20, suggest);
  }
  const serial = last('searchSerial');
  if (serial)
    add(
      `Search p95 < 50 ms (${serial.dataset}, 1 connection, ${tag})`,
      `${fmt(serial.p95)} ms`,
      serial.p95 < 50,
      serial,
    );
  const update = first('pageUpdate');
  if (update) {
    add(
      `Page update ≥ 500/s (${tag})`,
      `${int(update.requestsPerSecond)}/s`,
      update.requestsPerSecond >= 500,
      update,
    );
    add(`Page update p99 < 100 ms (${tag})`, `${fmt(update.p99)} ms`, update.p99 < 100, update);
  }
  const mixed = last('mixed');
  if (mixed?.classes) {
    const of = (kind) => mixed.classes[kind] ?? { p95: NaN, p99: NaN };
    const where = `mixed workload, ${mixed.dataset}, ${tag}`;
    add(`Reads p99 < 30 ms (${where})`, `${fmt(of('read').p99)} ms`, of('read').p99 < 30, mixed);
    add(
      `Searches p95 < 50 ms (${where})`,
      `${fmt(of('search').p95)} ms`,
      of('search').p95 < 50,
      mixed,
    );
    add(
      `Searches p99 < 150 ms (${where})`,
      `${fmt(of('search').p99)} ms`,
      of('search').p99 < 150,
      mixed,
    );
    add(
      `Updates p99 < 100 ms (${where})`,
      `${fmt(of('update').p99)} ms`,
      of('update').p99 < 100,
      mixed,
    );
    const failed = Object.values(mixed.classes).reduce(
      (n, c) =>
        n + Object.entries(c.statuses).reduce((m, [st, k]) => m + (Number(st) >= 400 ? k : 0), 0),
      0,
    );
    add(
      `No errors and no timeouts (${where}): error answers, socket errors / timeouts`,
      `${int(failed)}, ${failures(mixed)}`,
      failed === 0 && !mixed.errors && !mixed.timeouts,
      mixed,
    );
  }
  return rows;
}

function targets(results) {
  const modes = processModes(results);
  return modes.flatMap((workers, i) => targetsAt(results, workers, i === 0 && workers === '1'));
}

/** The row a target was read from: its req/s against the ceiling of the same run. */
const targetRatio = (results, row) => (row ? ratioText(results, row) : '-');

/**
 * The one summary: which targets this run met and missed, from the Targets rows, so the
 * numbers are never restated by hand (bench/analysis.md holds only the why and the next steps).
 */
function summary(results, report) {
  const rows = [
    ...targets(results).map(([name, value, met]) => ({ name, value, met })),
    ...[
      ...(report.imports ?? []),
      ...(report.moves ?? []),
      ...(report.rich ?? []),
      ...(report.collab ?? []),
      ...(report.console ?? []),
    ].map((row) => ({
      name: `${row.name}${row.target ? ` ${row.target}` : ''}`,
      value: row.value,
      met: row.ok ?? null,
    })),
  ].filter((row) => row.met !== null);
  const missed = rows.filter((row) => !row.met);
  const lines = ['## Summary', ''];
  lines.push(
    `${rows.length - missed.length} of ${rows.length} measured targets met${missed.length ? '; missed:' : '.'}`,
  );
  for (const row of missed) lines.push(`- ${row.name}: ${row.value}`);
  lines.push('');
  return lines;
}

/** The mixed workload's rows by class (bench/scenarios/mixed.js). */
function mixedSection(results) {
  const rows = results.filter((r) => r.key === 'mixed' && r.classes);
  if (rows.length === 0) return [];
  const lines = ['## Mixed workload', ''];
  lines.push(
    '`bench/scenarios/mixed.js`: one autocannon run of 50 connections on the large database, each request drawn from a fixed shuffled schedule of 100 slots (85 page reads of a random slug among all pages, 8 searches of the search mix, 5 lists: `GET /api/recent`, `GET /api/tags` and the second page of a common-word search in turn, 2 page updates with `If-Match`); times and statuses by class. A request of a class still unanswered 10 s after it was sent when the run ends is a timeout of that class.',
  );
  lines.push('');
  lines.push(
    '| Processes | Class | req/s | p50 ms | p95 ms | p99 ms | max ms | Timeouts | Responses |',
  );
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---|');
  const line = (row, kind, c) =>
    `| ${row.workers} | ${kind} | ${int(c.requestsPerSecond)} | ${fmt(c.p50)} | ${fmt(c.p95)} | ${fmt(c.p99)} | ${fmt(c.max)} | ${int(c.timeouts)} | ${statusText(c.statuses)} |`;
  for (const row of rows) {
    const kinds = Object.keys(row.classes).sort(
      (a, b) => MIXED_ORDER.indexOf(a) - MIXED_ORDER.indexOf(b),
    );
    for (const kind of kinds) lines.push(line(row, kind, row.classes[kind]));
    lines.push(line(row, '**all**', row));
  }
  lines.push('');
  for (const row of rows)
    lines.push(
      `- ${row.workers} process(es), all classes: ${ratioText(results, row)} of the ceiling's req/s; server event-loop delay p99 ${row.loopP99 == null ? '-' : `${fmt(row.loopP99)} ms`}; socket errors / timeouts ${failures(row)}; 1-minute load average ${fmt(row.load)} at its start.`,
    );
  lines.push('');
  return lines;
}

function writeReport(report, file) {
  const { machine, settings, seeding, results } = report;
  const ceiling = results.find((r) => r.key === 'ceiling');
  const counts = [...new Set(results.map((r) => r.processes).filter(Boolean))];
  const lines = [];
  lines.push('# Performance');
  lines.push('');
  lines.push(
    'Produced by `npm run bench` (scripts/bench.js → bench/run.js); regenerate it with the same command.',
  );
  lines.push(
    `Run of ${report.date.slice(0, 16).replace('T', ' ')} UTC, ${fmt(report.totalSeconds / 60)} minutes in all.`,
  );
  lines.push('');
  lines.push('## Machine');
  lines.push('');
  lines.push(`- CPUs (nproc): ${machine.nproc} × ${machine.cpu}`);
  lines.push(`- Memory: ${machine.memoryGiB} GiB`);
  lines.push(`- Node ${machine.node}, SQLite ${machine.sqlite}, ${machine.platform}`);
  lines.push(
    '- The load generator (autocannon, in the bench process) and the server under test share these CPUs.',
  );
  if (machine.loadAverage) {
    lines.push(
      `- 1-minute load average at the start and end of the run: ${machine.loadAverage.map((l) => l.toFixed(1)).join(' and ')} (other work on the machine lowers every number, the ceiling included); the Results table gives it at the start of each row.`,
    );
  }
  if ((report.phases ?? []).length > 0) {
    lines.push('- Phases (minutes from the start; 1-minute load average when each began):');
    for (const p of report.phases)
      lines.push(`  - ${fmt(p.at / 60)} min: ${p.label} (load ${fmt(p.load)})`);
  }
  lines.push('');
  lines.push('## Method');
  lines.push('');
  lines.push(
    `- autocannon, ${settings.connections} connections, ${settings.duration} s per scenario after a ${settings.warmup} s unrecorded warm-up; percentiles computed from every response time. "max" is the slowest answer, or the longest wait of a request still unanswered when the run ended if that is longer; a request unanswered after 10 s is a timeout.`,
  );
  lines.push(
    '- The server is the built `dist/main.js` started as a child process with `LOG_LEVEL=warn` on a fresh SQLite database in `bench/.work/`; requests carry a personal access token (bearer). The rate limits stay on with quotas no run reaches (their bookkeeping is part of each request).',
  );
  lines.push(
    `- Every HTTP scenario runs with kb at ${settings.workers.map((w) => (w === 'default' ? `kb's default process count (KB_WORKERS unset: one per CPU, ${Math.max(...counts)} here)` : `KB_WORKERS=${w}`)).join(', then ')}, each on a server started for it on the same database (column "Processes").`,
  );
  lines.push(
    `- The ceiling is \`bench/ceiling-app.js\`: a minimal NestJS (Express) app whose one handler returns a fixed 4 KB JSON document, run the same way${counts.length > 1 ? ', once per process count measured (node:cluster above one)' : ''}. "vs ceiling" compares each row with the ceiling at the same process count from the same run (a ceiling at several processes with the one-process ceiling).`,
  );
  lines.push(
    `- ${int(seeding.apiPages)} pages (${int(seeding.averageMarkdownBytes)} bytes of Markdown on average: headings, paragraphs, lists, task lists, fenced code, tables, links to other pages, 1-3 tags) were created through \`POST /api/pages\` in ${fmt(seeding.apiSeconds)} s.`,
  );
  if (seeding.bulkPages) {
    lines.push(
      `- For the ${int(seeding.apiPages + seeding.bulkPages)}-page measurements (search, mixed workload) ${int(seeding.bulkPages)} more pages from the same generator were written with SQL batches while the server was stopped (${fmt(seeding.bulkSeconds)} s): page rows, tags and search index rows (the index text built by the app's own \`markdownToPlainText\`); each carries the stored rendering of one of the API-seeded pages, so a read serves stored HTML as it does for any saved page. The FTS5 index is left as the inserts grew it (no \`optimize\`). Database: ${int(seeding.databaseMiB)} MiB.`,
    );
    const index = seeding.searchIndex;
    if (index && !index.error)
      lines.push(
        `- Search index (FTS5 \`page_search\`, all its tables): ${fmt(index.indexMiB)} MiB, over ${fmt(index.textMiB)} MiB of indexed text; the CJK/Thai grams columns (issue 32) hold ${fmt(index.gramsMiB)} MiB of it (one page in 20 carries a CJK paragraph, \`bench/corpus.js\`).`,
      );
  }
  lines.push(
    `- Page reads pick a random slug of the ${int(seeding.apiPages)} API-seeded pages per request (the mixed workload: of all pages); updates walk those pages in turn with \`If-Match\`, skipping a page with an update in flight, so any 409/412 would show in the status column.`,
  );
  lines.push(
    '- Search requests cycle through 400 queries: 50% rare words (code names on a handful of pages), 30% very common words (`the`, `and`, `service`, `data`, ... on nearly every page), 10% pairs of common domain words (`backup restore`), 10% explicit prefixes (`deplo*`).',
  );
  lines.push('');
  lines.push('## Results');
  lines.push('');
  lines.push(
    '| Scenario | Data | Processes | req/s | vs ceiling | p50 ms | p95 ms | p99 ms | max ms | loop p99 ms | Socket errors / timeouts | Responses | Load |',
  );
  lines.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const row of results) {
    lines.push(
      `| ${row.name} | ${row.dataset} | ${row.workers ?? '-'} | ${int(row.requestsPerSecond)} | ${ratioText(results, row)} | ${fmt(row.p50)} | ${fmt(row.p95)} | ${fmt(row.p99)} | ${fmt(row.max)} | ${row.loopP99 == null ? '-' : fmt(row.loopP99)} | ${failures(row)} | ${statusText(row.statuses)} | ${fmt(row.load)} |`,
    );
  }
  lines.push('');
  const notes = results.filter((row) => row.note);
  if (notes.length > 0) {
    for (const row of notes)
      lines.push(`- ${row.name} (${row.dataset}, ${row.workers} process(es)): ${row.note}`);
    lines.push('');
  }
  lines.push(
    '"loop p99" is the server\'s event-loop delay p99 over the measured run (kb\'s `/metrics`, `kb_event_loop_delay_seconds`; the worst process\'s with several); "Load" the 1-minute load average when the row started.',
    '',
  );
  lines.push(...mixedSection(results));
  if (ceiling) {
    lines.push('## Targets');
    lines.push('');
    lines.push('| Target | Measured | Met | req/s vs ceiling |');
    lines.push('|---|---:|:---:|---:|');
    for (const [name, value, met, source] of targets(results))
      lines.push(
        `| ${name} | ${value} | ${met === null ? '-' : met ? 'yes' : '**no**'} | ${targetRatio(results, source)} |`,
      );
    // Import benchmark rows (bench/import-bench.js): ok null = not measured.
    for (const row of [
      ...(report.imports ?? []),
      ...(report.moves ?? []),
      ...(report.rich ?? []),
      ...(report.collab ?? []),
      ...(report.console ?? []),
    ])
      lines.push(
        `| ${row.name}${row.target ? ` ${row.target}` : ''} | ${row.value} | ${row.ok === null || row.ok === undefined ? '-' : row.ok ? 'yes' : '**no**'} | - |`,
      );
    lines.push('');
    lines.push(...summary(results, report));
  }
  if ((report.imports ?? []).length > 0) {
    lines.push('## Import');
    lines.push('');
    lines.push(
      '`bench/import-bench.js` against a freshly started server on an empty database (SQLite, then MariaDB database `kb_bench` when 127.0.0.1:3306 answers; created and dropped by the bench): a generated 10,000-page Markdown ZIP (100 folders, links, 300 images) through `POST /api/import`, then once more synchronously, then the same archive as an import job (`async=true`, timed from the upload to the final `state` event of `GET /api/import/jobs/{id}/events`) and once more synchronously (the job is compared with the mean of the two synchronous runs around it: the first import, into an empty database, is faster than any later one); during these four imports `GET /healthz` and `GET /api/pages/{slug}` of a small page are each sent every 50 ms, on schedule whether or not the previous ones answered, and timed from their send (kb at `KB_WORKERS=1`, the case where a blocked event loop shows); then two 150 MiB ZIP bombs (understated and honest sizes), each posted three times.',
    );
    lines.push('');
    for (const row of report.imports)
      lines.push(`- ${row.name}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
    lines.push('');
  }
  if ((report.cluster ?? []).length > 0) {
    lines.push('## Cluster');
    lines.push('');
    lines.push(
      '`bench/cluster-bench.js`: 1, 2 and 3 kb instances behind nginx (`deploy/nginx/kb.conf`) on one MariaDB database (`kb_bench_cluster`, created and dropped by the bench), all on this one machine; page reads, then the mixed workload of `test/cluster` (read, search, update with If-Match, create) per connection.',
    );
    lines.push('');
    for (const row of report.cluster)
      lines.push(`- ${row.name}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
    lines.push('');
  }
  if ((report.moves ?? []).length > 0) {
    lines.push('## Move');
    lines.push('');
    lines.push(
      '`bench/move-bench.js` against a freshly started server (`KB_WORKERS=1`) on an empty SQLite database: 1,000 pages in ten folders under `bench-move/`, each linking to the next, and 50 pages outside linking into it, created through `POST /api/pages`; then `POST /api/pages/move` of the whole folder with `rewriteLinks`, timed to its answer, while `GET /healthz` is sent every 50 ms and timed from its send.',
    );
    lines.push('');
    for (const row of report.moves)
      lines.push(`- ${row.name}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
    lines.push('');
  }
  if ((report.rich ?? []).length > 0) {
    lines.push('## Rich content');
    lines.push('');
    lines.push(
      '`bench/rich-bench.js` against a freshly started server (`KB_WORKERS=1`) on an empty SQLite database: a page of 50 highlighted code blocks (ten languages), 20 formulas (KaTeX) and 5 diagrams (3 Graphviz, 2 Mermaid) rendered by `POST /api/preview` and written by `POST /api/pages` ten times each (the first render, which starts the render workers and loads the engines, timed apart), while `GET /healthz` is sent every 50 ms; then `GET /api/pages/{slug}` of one such page and of a plain page under load (20 connections): the HTML is rendered at write and stored, so a read does not render.',
    );
    lines.push('');
    for (const row of report.rich)
      lines.push(`- ${row.name}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
    lines.push('');
  }
  if ((report.collab ?? []).length > 0) {
    lines.push('## Co-editing');
    lines.push('');
    lines.push(
      "`bench/collab-bench.js`: 50 simulated editors (Node clients with the console's Yjs provider, y-websocket) on 10 pages, each typing 5 characters a second for 60 s, while `GET /api/pages/{slug}` is read 20 times a second; then 1,000 idle `/collab` connections. Once on one instance (SQLite, `KB_WORKERS=1`), once across two instances behind nginx (MariaDB `kb_bench_collab`, Redis fan-out). Keystroke-to-peer latency runs from the keystroke to each other editor of the page having it applied (all clients in one process: one clock).",
    );
    lines.push('');
    for (const row of report.collab)
      lines.push(`- ${row.name}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
    lines.push('');
  }
  if ((report.console ?? []).length > 0) {
    lines.push('## Console');
    lines.push('');
    lines.push(
      "`bench/console-bench.js`: Playwright drives Debian's Chromium against the built server on localhost (a fresh SQLite database, a 40-section page). Each run is a fresh browser context (empty cache): sign in through the form, open the page; then a second fresh context with the session cookie opens the page alone.",
    );
    lines.push('');
    for (const row of report.console)
      lines.push(`- ${row.name}: ${row.value}${row.note ? ` (${row.note})` : ''}`);
    lines.push('');
  }
  const analysis = join(__dirname, 'analysis.md');
  if (existsSync(analysis)) lines.push(readFileSync(analysis, 'utf8').trim(), '');
  writeFileSync(file, `${lines.join('\n')}\n`);
}

module.exports = { writeReport };
