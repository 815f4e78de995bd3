#!/usr/bin/env node
// `npm start`: builds dist/ when it is missing or older than src/, then runs the server.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
// `--cli` runs the admin CLI, `--openapi` writes the OpenAPI document (npm run cli / openapi:json).
const modes = { '--cli': 'cli.js', '--openapi': 'openapi.js' };
const mode = modes[process.argv[2]];
const entry = join(root, 'dist', 'main.js');
const target = join(root, 'dist', mode ?? 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

// An image that ships only dist/ (no src/) never rebuilds.
const src = join(root, 'src');
if (!existsSync(entry) || (existsSync(src) && newestMtime(src) > statSync(entry).mtimeMs)) {
  console.warn('kb: building (dist/ is missing or older than src/)...');
  // Start clean: a file deleted from src/ must not live on in dist/ (entities and migrations
  // are found by glob, so a stale one would still be loaded).
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const build = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
if (mode) process.argv.splice(2, 1);
require(target);
