'use strict';
// Search with the query language (issue 32, docs/search.md): the rows its "Performance" asks
// for, each at the bench's 50 connections on the small and the 100,000-page database.
// - phrases, filters and facets: `"database migration"`, `deploy tag:ops`, `backup
//   under:ops updated:>2026-01-01`, half of them with facets=tags,folders;
// - as you type: two-letter words, whose last word is a prefix (`de`, `ku`), alone or after a
//   word (`backup re`), the expansion bounded by FTS5's 2- and 3-character prefix index;
// - CJK: two- to four-character substrings of the Chinese, Japanese and Korean paragraphs one
//   page in 20 carries (bench/corpus.js), found through the index's character pairs.
const { cyclePaths } = require('../requests');

const PHRASES = [
  '"database migration"',
  '"backup restore"',
  '"release pipeline"',
  '"incident runbook"',
  '"security policy"',
];
const FILTERED = [
  'deploy tag:ops',
  'backup under:ops',
  'database -migration',
  'kubernetes OR docker',
  'incident updated:>2026-01-01',
  'release lifecycle:published',
  'customer tag:billing under:finance',
];
const TWO_LETTERS = ['de', 'ba', 'mo', 'ku', 'th', 'se', 're', 'in', 'backup re', 'cluster no'];
const CJK = [
  '尊严',
  '自由',
  '理性',
  '良心',
  '兄弟关系',
  '人間',
  '尊厳',
  '同胞',
  '존엄',
  '권리',
  '양심',
];

const search = (q, extra = '') => `/api/search?q=${encodeURIComponent(q)}${extra}`;

function filterMix() {
  const paths = [];
  for (const q of [...PHRASES, ...FILTERED]) {
    paths.push(search(q));
    paths.push(search(q, '&facets=tags,folders'));
  }
  return paths;
}

module.exports = [
  {
    key: 'searchFilters',
    name: 'GET /api/search: phrases, filters, facets',
    phase: 'search',
    run: (ctx) => ctx.measure([cyclePaths(filterMix())]),
  },
  {
    key: 'searchPrefix2',
    name: 'GET /api/search: two-letter prefixes (as you type)',
    phase: 'search',
    run: (ctx) => ctx.measure([cyclePaths(TWO_LETTERS.map((q) => search(q)))]),
  },
  {
    key: 'searchCjk',
    name: 'GET /api/search: CJK substrings',
    phase: 'search',
    run: (ctx) => ctx.measure([cyclePaths(CJK.map((q) => search(q)))]),
  },
];
module.exports.filterMix = filterMix;
