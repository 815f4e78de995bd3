/** `npm run test:corpora`: imports the shared real-world corpora (../shared/corpora). */
const base = require('./jest.config.js');
module.exports = { ...base, testRegex: 'test/corpora/.*\\.corpora-spec\\.ts$', testPathIgnorePatterns: ['/node_modules/', '/dist/'], maxWorkers: 1, testTimeout: 300_000 };
