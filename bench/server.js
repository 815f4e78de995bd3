'use strict';
// Starting and stopping the processes under test: the built kb server (dist/main.js) and the
// ceiling app, each a child process on its own port.
const { spawn } = require('node:child_process');
const { readFileSync, readdirSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');

async function waitFor(url, child, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${url}: the process exited during start`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** The processes whose parent is `pid` (Linux /proc): kb's workers with KB_WORKERS > 1. */
function childPids(pid) {
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid)
        children.push(Number(entry));
    } catch {
      // gone
    }
  }
  return children;
}

/**
 * With node:cluster the first worker answers before the others listen, and connections opened
 * then all go to it for the whole run: wait until `workers` worker processes exist and `url`
 * (kb's /metrics, which needs an answer from every worker) answers, then a moment for the last
 * to listen (the warm-up run comes before any measured connection).
 */
async function waitForWorkers(child, workers, url, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (childPids(child.pid).length < workers) {
    if (Date.now() > deadline) throw new Error(`${workers} workers did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await waitFor(url, child, Math.max(1000, deadline - Date.now()));
  await new Promise((r) => setTimeout(r, 1000));
}

/** 'default' (kb's own: one per CPU), or a count: the number of HTTP processes. */
function processCount(workers) {
  return workers === 'default' ? availableParallelism() : Number(workers);
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

/**
 * kb from dist/main.js on a port of this machine, `workers` HTTP processes (KB_WORKERS; 'default'
 * leaves it unset, so kb starts one per CPU). Answers {url, pid, processes, stop}.
 */
async function startKb({ port, dataDir, env = {}, nodeArgs = [], workers = 1 }) {
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      KB_DATA_DIR: dataDir,
      DB_TYPE: 'sqlite',
      LOG_LEVEL: 'warn',
      KB_ADMIN_USERNAME: 'bench',
      KB_ADMIN_PASSWORD: 'bench-password',
      REVIEW_CHECK_INTERVAL_SECONDS: '0',
      NODE_ENV: 'production',
      // The rate limits stay on (their bookkeeping is part of every request's cost) with
      // quotas no benchmark reaches.
      RATE_LIMIT_READ: '100000000/60s',
      RATE_LIMIT_WRITE: '100000000/60s',
      RATE_LIMIT_SEARCH: '100000000/60s',
      RATE_LIMIT_IMPORT: '100000000/60s',
      ...(workers === 'default' ? {} : { KB_WORKERS: String(workers) }),
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const processes = processCount(workers);
  await waitFor(`${url}/readyz`, child);
  if (processes > 1) await waitForWorkers(child, processes, `${url}/metrics`);
  return { url, stop: () => stop(child), pid: child.pid, processes };
}

/** The ceiling app (bench/ceiling-app.js), `workers` processes (CEILING_WORKERS). */
async function startCeiling({ port, env = {}, workers = 1 }) {
  const child = spawn(process.execPath, [join(__dirname, 'ceiling-app.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: 'production',
      CEILING_WORKERS: String(processCount(workers)),
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const processes = processCount(workers);
  await waitFor(`${url}/ceiling`, child);
  if (processes > 1) await waitForWorkers(child, processes, `${url}/ceiling`);
  return { url, stop: () => stop(child), pid: child.pid, processes };
}

/** Signs in as the bootstrap admin and creates a personal access token (bearer). */
async function bearerToken(url) {
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('kb_session='));
  const res = await fetch(`${url}/api/tokens`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie,
      'sec-fetch-site': 'same-origin',
      origin: url,
    },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (res.status !== 201) throw new Error(`token: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}

module.exports = { startKb, startCeiling, bearerToken, processCount, childPids };
