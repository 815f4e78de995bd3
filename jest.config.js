/** @type {import('jest').Config} */
const swc = JSON.parse(require('node:fs').readFileSync(__dirname + '/.swcrc', 'utf8'));
delete swc.$schema;

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testRegex: process.env.JEST_E2E_ONLY === '1' ? 'test/.*\\.e2e-spec\\.ts$' : '(src|test|console/src)/.*\\.(spec|e2e-spec|browser-spec)\\.ts$|console/src/.*\\.spec\\.tsx$',
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/bench/', '/test/corpora/'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
    // The console's component specs (*.spec.tsx, in test/support/component-environment.js).
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        ...swc,
        jsc: {
          ...swc.jsc,
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
        },
      },
    ],
    // openid-client (with oauth4webapi and jose) and otplib's @noble/@scure ship only ES modules: compiled to CommonJS for Jest
    // (Node itself loads them with require() at run time).
    '/node_modules/(openid-client|oauth4webapi|jose|@noble|@scure|oidc-provider)/.+\\.js$': ['@swc/jest', swc],
  },
  // (also where npm nests them: node_modules/@otplib/…/node_modules/@noble/hashes)
  transformIgnorePatterns: [
    '^(?!.*/node_modules/(openid-client|oauth4webapi|jose|@noble|@scure|oidc-provider)/).*/node_modules/',
  ],
  testTimeout: 120_000,
  // The MariaDB run drops test databases left by crashed runs, before and after (never live ones).
  globalSetup: '<rootDir>/test/support/mysql-cleanup.ts',
  globalTeardown: '<rootDir>/test/support/mysql-cleanup.ts',
  maxWorkers: 2,
};
