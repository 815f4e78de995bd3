#!/usr/bin/env node
// `npm start`: builds the server (dist/) and the console (dist/console/public) when missing or
// older than their sources, then runs the server.
const { join } = require('node:path');
const { ensureConsoleBuilt, ensureServerBuilt } = require('./build-steps');

const cli = process.argv[2] === '--cli';
ensureServerBuilt();
if (!cli) ensureConsoleBuilt();
if (cli) process.argv.splice(2, 1);
require(join(__dirname, '..', 'dist', cli ? 'cli.js' : 'main.js'));
