#!/usr/bin/env node
// `npm start`: builds the server (dist/) and the console (dist/console/public) when missing or
// older than their sources, then runs the server. `--cli` runs the admin CLI, `--openapi` writes
// the OpenAPI document (npm run cli / openapi:json); neither needs the console.
const { join } = require('node:path');
const { ensureConsoleBuilt, ensureServerBuilt } = require('./build-steps');

const modes = { '--cli': 'cli.js', '--openapi': 'openapi.js' };
const mode = modes[process.argv[2]];
ensureServerBuilt();
if (!mode) ensureConsoleBuilt();
if (mode) process.argv.splice(2, 1);
require(join(__dirname, '..', 'dist', mode ?? 'main.js'));
