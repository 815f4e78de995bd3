#!/usr/bin/env node
// Builds what `npm start`, `npm test` and `npm run bench` need, each only when it is missing
// or older than its sources: the server (src/ -> dist/, tsc) and the console (console/ ->
// dist/console/public/, Vite, with .br and .gz siblings of every text asset).
//   node scripts/build-steps.js [server|console|all] [--force]
const { spawnSync } = require('node:child_process');
const {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const { join } = require('node:path');
const zlib = require('node:zlib');

const root = join(__dirname, '..');
const dist = join(root, 'dist');
const consoleOut = join(dist, 'console', 'public');

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function run(args, label) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`kb: ${label} failed`);
    process.exit(result.status ?? 1);
  }
}

/** Removes dist/ except the console build, which has sources of its own. */
function cleanServerOutput() {
  if (!existsSync(dist)) return;
  for (const entry of readdirSync(dist)) {
    if (entry !== 'console') rmSync(join(dist, entry), { recursive: true, force: true });
  }
  const consoleDir = join(dist, 'console');
  if (existsSync(consoleDir)) {
    for (const entry of readdirSync(consoleDir)) {
      if (entry !== 'public') rmSync(join(consoleDir, entry), { recursive: true, force: true });
    }
  }
}

function ensureServerBuilt(force = false) {
  const entry = join(dist, 'main.js');
  const src = join(root, 'src');
  // An image that ships only dist/ (no src/) never rebuilds.
  const stale =
    !existsSync(entry) || (existsSync(src) && newestMtime(src) > statSync(entry).mtimeMs);
  if (!force && !stale) return;
  console.warn('kb: building the server (dist/ is missing or older than src/)...');
  // Start clean: a file deleted from src/ must not live on in dist/ (entities and migrations
  // are found by glob, so a stale one would still be loaded).
  cleanServerOutput();
  run([require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], 'tsc');
}

/** Text assets get precompressed siblings, served when the browser accepts the encoding. */
function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(path);
      continue;
    }
    if (!/\.(js|css|svg|html|json)$/.test(entry.name)) continue;
    const body = readFileSync(path);
    writeFileSync(`${path}.gz`, zlib.gzipSync(body, { level: 9 }));
    writeFileSync(
      `${path}.br`,
      zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
  }
}

function consoleSourcesMtime() {
  return Math.max(newestMtime(join(root, 'console')), newestMtime(join(root, 'package-lock.json')));
}

/**
 * Runs `build` holding a lock file, so processes that start at once (jest workers) build once:
 * the others wait for the lock to go, then find the build fresh. A lock older than 3 minutes is
 * left over from a crash and taken over.
 */
function withBuildLock(lock, isFresh, build) {
  mkdirSync(join(lock, '..'), { recursive: true });
  const sleep = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 180_000)
        rmSync(lock, { force: true });
      else Atomics.wait(sleep, 0, 0, 250);
    }
  }
  try {
    if (!isFresh()) build();
  } finally {
    rmSync(lock, { force: true });
  }
}

function ensureConsoleBuilt(force = false) {
  const index = join(consoleOut, 'index.html');
  const sources = join(root, 'console');
  if (!existsSync(sources)) return;
  const fresh = () => existsSync(index) && consoleSourcesMtime() <= statSync(index).mtimeMs;
  if (!force && fresh()) return;
  withBuildLock(
    join(dist, 'console', '.build.lock'),
    () => !force && fresh(),
    () => {
      console.warn(
        'kb: building the console (dist/console/public is missing or older than console/)...',
      );
      run(
        [
          join(require.resolve('vite/package.json'), '..', 'bin', 'vite.js'),
          'build',
          '--config',
          join(sources, 'vite.config.mts'),
          '--logLevel',
          'warn',
        ],
        'vite build',
      );
      precompress(consoleOut);
    },
  );
}

module.exports = { ensureServerBuilt, ensureConsoleBuilt, newestMtime };

if (require.main === module) {
  const what = process.argv[2] ?? 'all';
  const force = process.argv.includes('--force');
  if (what === 'server' || what === 'all') ensureServerBuilt(force);
  if (what === 'console' || what === 'all') ensureConsoleBuilt(force);
}
