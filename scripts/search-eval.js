#!/usr/bin/env node
// `npm run search:eval`: the search relevance suite (test/eval/search-relevance.eval-spec.ts)
// on SQLite and on MySQL/MariaDB (`-- sqlite` or `-- mysql` for one), then NDCG@10 and MRR
// per language, per kind of query and overall. Exits non-zero when a run fails, e.g. a figure
// fell below its floor (test/fixtures/search-eval/floors.json). Jest's JSON results go to
// .test-results/search-eval-<db>.json (what .ci/run counts).
const { spawn } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const asked = process.argv.slice(2).filter((a) => a === 'sqlite' || a === 'mysql');
const databases = asked.length > 0 ? asked : ['sqlite', 'mysql'];
mkdirSync(join(root, '.test-results'), { recursive: true });

/** One database's run; both run at once (each is mostly waiting on its database). */
function run(db) {
  const report = join(root, '.test-results', `search-eval-${db}-report.json`);
  rmSync(report, { force: true });
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        require.resolve('jest/bin/jest'),
        '-c',
        'jest.search-eval.config.js',
        '--json',
        `--outputFile=.test-results/search-eval-${db}.json`,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DB_TYPE: db } },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      process.stdout.write(`\n[${db}]\n${output}`);
      resolve({
        ok: code === 0,
        report: existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : null,
      });
    });
  });
}

const pad = (s, n) => String(s).padEnd(n);
async function main() {
  const runs = await Promise.all(databases.map(run));
  for (const { report } of runs) if (report) print(report);
  process.exit(runs.every((r) => r.ok) ? 0 : 1);
}

function print(r) {
  console.log(`\nSearch relevance on ${r.database}: ${r.overall.queries} judged queries`);
  console.log(`${pad('', 12)}${pad('queries', 9)}${pad('NDCG@10', 9)}MRR`);
  const row = (name, s) =>
    console.log(
      `${pad(name, 12)}${pad(s.queries, 9)}${pad(s.ndcg10.toFixed(3), 9)}${s.mrr.toFixed(3)}`,
    );
  for (const [lang, s] of Object.entries(r.byLanguage)) row(lang, s);
  console.log('  by kind');
  for (const [kind, s] of Object.entries(r.byKind)) row(kind, s);
  row('overall', r.overall);
  if (r.misses.length > 0) console.log(`  no grade-2 page in the top 10: ${r.misses.join('; ')}`);
}

void main();
