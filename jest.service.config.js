/** @type {import('jest').Config} */
// The service tier (npm run test:service, run first by npm test): use cases against a real
// SQLite database without HTTP (test/support/service-context.ts). The whole tier stays < 30 s.
const base = require('./jest.config.js');

module.exports = {
  ...base,
  testRegex: 'test/service/.*\\.service-spec\\.ts$',
  globalSetup: undefined,
  globalTeardown: undefined,
};
