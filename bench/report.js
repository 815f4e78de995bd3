'use strict';
// Writes docs/PERFORMANCE.md from a run's results. The analysis (why a target is missed, what
// to do next) is kept by hand in bench/analysis.md and copied in, so the numbers and the
// reasoning sit in one document.
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '-');

function statusText(row) {
  const parts = Object.entries(row.statuses ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}: ${int(count)}`);
  if (row.errors) parts.push(`socket errors/timeouts: ${row.errors}`);
  return parts.join(', ') || '-';
}

function targets(results, ceiling) {
  const find = (key, dataset) =>
    results.find((r) => r.key === key && (!dataset || r.dataset === dataset));
  const search = results.filter((r) => r.key === 'search').pop();
  const searchSerial = results.filter((r) => r.key === 'searchSerial').pop();
  const read = find('pageRead');
  const update = find('pageUpdate');
  const rows = [];
  if (read) {
    const ratio = read.requestsPerSecond / ceiling.requestsPerSecond;
    rows.push(['Page read ≥ 60% of the ceiling', `${fmt(ratio * 100, 0)}%`, ratio >= 0.6]);
    rows.push(['Page read p99 < 25 ms', `${fmt(read.p99)} ms`, read.p99 < 25]);
    const framed = find('ceilingMiddleware');
    if (framed)
      rows.push([
        'Page read vs the ceiling with kb middleware and a 12 KB body (reference, no target)',
        `${fmt((read.requestsPerSecond / framed.requestsPerSecond) * 100, 0)}%`,
        null,
      ]);
  }
  if (search)
    rows.push([
      `Search p95 < 50 ms (${search.dataset}, 50 connections)`,
      `${fmt(search.p95)} ms`,
      search.p95 < 50,
    ]);
  if (searchSerial)
    rows.push([
      `Search p95 < 50 ms (${searchSerial.dataset}, 1 connection)`,
      `${fmt(searchSerial.p95)} ms`,
      searchSerial.p95 < 50,
    ]);
  if (update)
    rows.push([
      'Page update ≥ 500/s',
      `${int(update.requestsPerSecond)}/s`,
      update.requestsPerSecond >= 500,
    ]);
  return rows;
}

/**
 * The one summary: which targets this run met and missed, from the Targets rows, so the
 * numbers are never restated by hand (bench/analysis.md holds only the why and the next steps).
 */
function summary(results, ceiling, report) {
  const rows = [
    ...targets(results, ceiling).map(([name, value, met]) => ({ name, value, met })),
    ...[...(report.imports ?? []), ...(report.console ?? [])].map((row) => ({
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

function writeReport(report, file) {
  const { machine, settings, seeding, results } = report;
  const ceiling = results.find((r) => r.key === 'ceiling');
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
      `- 1-minute load average at the start and end of the run: ${machine.loadAverage.map((l) => l.toFixed(1)).join(' and ')} (other work on the machine lowers every number, the ceiling included).`,
    );
  }
  lines.push('');
  lines.push('## Method');
  lines.push('');
  lines.push(
    `- autocannon, ${settings.connections} connections, ${settings.duration} s per scenario after a ${settings.warmup} s unrecorded warm-up; percentiles computed from every response time.`,
  );
  lines.push(
    '- The server is the built `dist/main.js` started as a child process with `LOG_LEVEL=warn` on a fresh SQLite database in `bench/.work/`; requests carry a personal access token (bearer).',
  );
  lines.push(
    '- The ceiling is `bench/ceiling-app.js`: a minimal NestJS (Express) app whose one handler returns a fixed 4 KB JSON document, run the same way.',
  );
  lines.push(
    `- ${int(seeding.apiPages)} pages (${int(seeding.averageMarkdownBytes)} bytes of Markdown on average: headings, paragraphs, lists, task lists, fenced code, tables, links to other pages, 1-3 tags) were created through \`POST /api/pages\` in ${fmt(seeding.apiSeconds)} s.`,
  );
  if (seeding.bulkPages) {
    lines.push(
      `- For the 100,000-page search measurement ${int(seeding.bulkPages)} more pages from the same generator were written with SQL batches while the server was stopped (${fmt(seeding.bulkSeconds)} s): page rows, tags and search index rows (the index text built by the app's own \`markdownToPlainText\`). The FTS5 index is left as the inserts grew it (no \`optimize\`). Database: ${int(seeding.databaseMiB)} MiB.`,
    );
  }
  lines.push(
    '- Page reads pick a random slug of the 10,000 per request; updates walk the 10,000 pages in turn with `If-Match` (no two requests in flight touch one page), so any 409/412 would show in the status column.',
  );
  lines.push(
    '- Search requests cycle through 400 queries: 50% rare words (code names on a handful of pages), 30% very common words (`the`, `and`, `service`, `data`, ... on nearly every page), 10% pairs of common domain words (`backup restore`), 10% explicit prefixes (`deplo*`).',
  );
  lines.push('');
  lines.push('## Results');
  lines.push('');
  lines.push(
    '| Scenario | Data | req/s | vs ceiling | p50 ms | p95 ms | p97.5 ms | p99 ms | loop p99 ms | Responses |',
  );
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const row of results) {
    const ratio =
      ceiling && row !== ceiling
        ? `${fmt((row.requestsPerSecond / ceiling.requestsPerSecond) * 100, 0)}%`
        : row === ceiling
          ? '100%'
          : '-';
    lines.push(
      `| ${row.name} | ${row.dataset} | ${int(row.requestsPerSecond)} | ${ratio} | ${fmt(row.p50)} | ${fmt(row.p95)} | ${fmt(row.p97_5)} | ${fmt(row.p99)} | ${row.loopP99 == null ? '-' : fmt(row.loopP99)} | ${statusText(row)} |`,
    );
  }
  lines.push('');
  const notes = results.filter((row) => row.note);
  if (notes.length > 0) {
    for (const row of notes) lines.push(`- ${row.name} (${row.dataset}): ${row.note}`);
    lines.push('');
  }
  if (ceiling) {
    lines.push('## Targets');
    lines.push('');
    lines.push('| Target | Measured | Met |');
    lines.push('|---|---:|:---:|');
    for (const [name, value, met] of targets(results, ceiling))
      lines.push(`| ${name} | ${value} | ${met === null ? '-' : met ? 'yes' : '**no**'} |`);
    // Import benchmark rows (bench/import-bench.js): ok null = not measured.
    for (const row of [...(report.imports ?? []), ...(report.console ?? [])])
      lines.push(
        `| ${row.name}${row.target ? ` ${row.target}` : ''} | ${row.value} | ${row.ok === null || row.ok === undefined ? '-' : row.ok ? 'yes' : '**no**'} |`,
      );
    lines.push('');
    lines.push(...summary(results, ceiling, report));
  }
  if ((report.imports ?? []).length > 0) {
    lines.push('## Import');
    lines.push('');
    lines.push(
      '`bench/import-bench.js` against a freshly started server on an empty database (SQLite, then MariaDB database `kb_bench` when 127.0.0.1:3306 answers; created and dropped by the bench): a generated 10,000-page Markdown ZIP (100 folders, links, 300 images) through `POST /api/import`, then the same archive as an import job (`async=true`, timed from the upload to the final `state` event of `GET /api/import/jobs/{id}/events`) and once more synchronously (the job is compared with the mean of the two synchronous runs around it), then two 150 MiB ZIP bombs (understated and honest sizes), each posted three times.',
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
