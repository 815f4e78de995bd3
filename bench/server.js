'use strict';
// Starting and stopping the processes under test: the built kb server (dist/main.js) and the
// ceiling app, each a child process on its own port.
const { spawn } = require('node:child_process');
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

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

async function startKb({ port, dataDir, env = {}, nodeArgs = [] }) {
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
      // One HTTP process unless BENCH_KB_WORKERS says otherwise (e.g. `BENCH_KB_WORKERS=4`, or
      // `default` for kb's own default, the number of CPUs): the ratios to the single-process
      // ceiling compare like with like.
      ...(process.env.BENCH_KB_WORKERS === 'default'
        ? {}
        : { KB_WORKERS: process.env.BENCH_KB_WORKERS ?? '1' }),
      ...env,
    },
  });
  await waitFor(`http://127.0.0.1:${port}/readyz`, child);
  return { url: `http://127.0.0.1:${port}`, stop: () => stop(child), pid: child.pid };
}

async function startCeiling({ port, env = {} }) {
  const child = spawn(process.execPath, [join(__dirname, 'ceiling-app.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(port), NODE_ENV: 'production', ...env },
  });
  await waitFor(`http://127.0.0.1:${port}/ceiling`, child);
  return { url: `http://127.0.0.1:${port}`, stop: () => stop(child), pid: child.pid };
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

module.exports = { startKb, startCeiling, bearerToken };
