/** `npm run search:eval`: the relevance suite (test/eval), one database per run (DB_TYPE). */
const base = require('./jest.config.js');
module.exports = {
  ...base,
  testRegex: 'test/eval/.*\\.eval-spec\\.ts$',
  maxWorkers: 1,
  testTimeout: 600_000,
};
