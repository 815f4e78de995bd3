/** @type {import('jest').Config} */
// `npm run test:cluster`: MariaDB, s3rver, three kb processes and nginx, started by the spec.
const base = require('./jest.config.js');

module.exports = {
  ...base,
  testRegex: 'test/cluster/.*\\.cluster-spec\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: undefined,
  globalTeardown: undefined,
  maxWorkers: 1,
  testTimeout: 240_000,
  // The spec spawns servers and processes: a run that failed half-way still ends.
  forceExit: true,
};
