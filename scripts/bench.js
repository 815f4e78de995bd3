#!/usr/bin/env node
// `npm run bench`: builds dist/ when it is missing or older than src/, then runs the benchmark
// (bench/run.js). Never part of `npm test`. Settings: BENCH_PAGES, BENCH_SEARCH_PAGES,
// BENCH_CONNECTIONS, BENCH_DURATION, BENCH_WARMUP, BENCH_PORT, BENCH_CEILING_PORT,
// BENCH_MYSQL_URL (import benchmark on MariaDB), BENCH_NODE_ARGS (e.g. --cpu-prof for the kb
// server), and BENCH_ONLY=key,key (scenario keys, ceilingMiddleware, import) for a partial run
// that leaves docs/PERFORMANCE.md alone.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, item.name);
    newest = Math.max(newest, item.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(entry) || newestMtime(join(root, 'src')) > statSync(entry).mtimeMs) {
  console.log('bench: building dist/ ...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

require('../bench/run.js')
  .main()
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
