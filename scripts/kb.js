#!/usr/bin/env node
// The `kb` command (package.json "bin"; `npx kb …` from a clone or an install): the client
// commands push, pull and links, and the administration commands of `npm run cli`. Builds
// dist/ first when it is missing or older than src/.
const { join } = require('node:path');
const { ensureServerBuilt } = require('./build-steps');

ensureServerBuilt();
require(join(__dirname, '..', 'dist', 'cli.js'));
