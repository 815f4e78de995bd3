#!/usr/bin/env node
// `npm run bench`: builds dist/ and the console when missing or stale, then runs the benchmark
// (bench/run.js). Never part of `npm test`. Settings: BENCH_PAGES, BENCH_SEARCH_PAGES,
// BENCH_IMPORT_PAGES (the import benchmark's archive, 10,000 pages; 500 with BENCH_QUICK),
// BENCH_MOVE_PAGES (the folder move benchmark, 1,000 pages),
// BENCH_CONNECTIONS, BENCH_DURATION, BENCH_WARMUP, BENCH_PORT, BENCH_CEILING_PORT,
// BENCH_MYSQL_URL (import and cluster benchmarks on MariaDB), BENCH_CLUSTER_PAGES,
// BENCH_COLLAB_SECONDS / _EDITORS / _PAGES / _IDLE (the co-editing benchmark), BENCH_REDIS_URL,
// BENCH_KB_WORKERS (one process count instead of 1 and kb's default), BENCH_NODE_ARGS (e.g.
// --cpu-prof for the kb servers), and BENCH_ONLY=key,key (scenario keys,
// ceilingMiddleware, import, cluster, move, rich, collab, console) for a partial run that leaves
// docs/PERFORMANCE.md alone; BENCH_QUICK=1 runs everything small and short (a check of the
// bench, minutes instead of an hour), also leaving the report alone.
const { ensureConsoleBuilt, ensureServerBuilt } = require('./build-steps');

ensureServerBuilt();
ensureConsoleBuilt();

require('../bench/run.js')
  .main()
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
