/** @type {import('jest').Config} */
const swc = JSON.parse(require('node:fs').readFileSync(__dirname + '/.swcrc', 'utf8'));
delete swc.$schema;

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testRegex: process.env.JEST_E2E_ONLY === '1' ? 'test/.*\\.e2e-spec\\.ts$' : '(src|test|console/src)/.*\\.(spec|e2e-spec|browser-spec)\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/bench/', '/test/corpora/'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
    // openid-client and its two dependencies ship only ES modules: compiled to CommonJS for Jest
    // (Node itself loads them with require() at run time).
    '/node_modules/(openid-client|oauth4webapi|jose)/.+\\.js$': ['@swc/jest', swc],
  },
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose)/)'],
  testTimeout: 120_000,
  // The MariaDB run drops test databases left by crashed runs, before and after (never live ones).
  globalSetup: '<rootDir>/test/support/mysql-cleanup.ts',
  globalTeardown: '<rootDir>/test/support/mysql-cleanup.ts',
  maxWorkers: 2,
};
