#!/usr/bin/env node
// `npm test`: the service tier (test/service), then every spec on SQLite (the console's browser specs included), the media e2e specs
// with media in S3 (s3rver), then the e2e specs on MariaDB/MySQL when one answers
// (REQUIRE_MYSQL=1 makes a missing server a failure). Builds the
// console first when it is missing or older than console/. Prints per-run and total counts.
const { spawnSync } = require('node:child_process');
const { mkdirSync, readFileSync, existsSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const net = require('node:net');
const { ensureConsoleBuilt } = require('./build-steps');

const root = join(__dirname, '..');
const results = join(root, '.test-results');
const mysqlUrl = new URL(process.env.MYSQL_TEST_URL || 'mysql://root@127.0.0.1:3306');
const extraArgs = process.argv.slice(2);

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port), timeout: 2000 });
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

function runJest(name, env, args) {
  const outputFile = join(results, `${name}.json`);
  rmSync(outputFile, { force: true });
  console.log(`\n=== jest on ${name} ===`);
  const jestBin = require.resolve('jest/bin/jest');
  const run = spawnSync(
    process.execPath,
    [jestBin, '--json', `--outputFile=${outputFile}`, ...args, ...extraArgs],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    },
  );
  if (!existsSync(outputFile))
    return { name, passed: 0, failed: 1, crashed: true, status: run.status };
  const json = JSON.parse(readFileSync(outputFile, 'utf8'));
  // A suite that fails to load counts as a failure even though it has no test results.
  const brokenSuites = json.numRuntimeErrorTestSuites || 0;
  return {
    name,
    passed: json.numPassedTests,
    failed: json.numFailedTests + brokenSuites,
    status: run.status,
  };
}

(async () => {
  mkdirSync(results, { recursive: true });
  ensureConsoleBuilt();
  // The service tier first: use cases on SQLite without HTTP, the quickest to fail.
  const runs = [runJest('service', { DB_TYPE: 'sqlite' }, ['-c', 'jest.service.config.js'])];
  runs.push(runJest('sqlite', { DB_TYPE: 'sqlite' }, []));
  // The media specs again with media in a bucket of a real S3-protocol server (s3rver).
  runs.push(
    runJest('s3', { DB_TYPE: 'sqlite', TEST_MEDIA_STORE: 's3', JEST_E2E_ONLY: '1' }, [
      'test/e2e/media-',
    ]),
  );
  const mysqlUp = await reachable(mysqlUrl.hostname, mysqlUrl.port || 3306);
  if (mysqlUp) {
    runs.push(runJest('mysql', { DB_TYPE: 'mysql', JEST_E2E_ONLY: '1' }, []));
  } else if (process.env.REQUIRE_MYSQL === '1') {
    console.error(`REQUIRE_MYSQL=1 but nothing answers at ${mysqlUrl.host}`);
    runs.push({ name: 'mysql', passed: 0, failed: 1, crashed: true });
  } else {
    console.log(
      `\n(no MariaDB/MySQL at ${mysqlUrl.host}: the MySQL run is skipped; set REQUIRE_MYSQL=1 to require it)`,
    );
  }
  console.log('');
  for (const r of runs)
    console.log(
      `${r.name}: ${r.passed} passed, ${r.failed} failed${r.crashed ? ' (jest did not report)' : ''}`,
    );
  const passed = runs.reduce((n, r) => n + r.passed, 0);
  const failed = runs.reduce((n, r) => n + r.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || runs.some((r) => r.status !== 0) ? 1 : 0);
})();
