'use strict';
// Search scenarios: a mix of rare words (code names found on a handful of pages), very common
// ones (on nearly every page), pairs of common words and a few explicit prefixes (`deplo*`).
const { cyclePaths } = require('../requests');

const VERY_COMMON = [
  'the',
  'and',
  'service',
  'data',
  'system',
  'access',
  'page',
  'time',
  'deploy',
  'update',
];
const COMMON_PAIRS = [
  'backup restore',
  'database migration',
  'incident runbook',
  'release pipeline',
  'customer billing',
  'security policy',
];

const PREFIXES = ['deplo*', 'backu*', 'monit*', 'kuber*', 'certif*'];

function queryMix(ctx, size = 400) {
  const queries = [];
  for (let i = 0; i < size; i++) {
    const r = i % 10;
    if (r < 5) queries.push(ctx.corpus.rare[(i * 7919) % ctx.corpus.rare.length]);
    else if (r < 8) queries.push(VERY_COMMON[i % VERY_COMMON.length]);
    else if (r < 9) queries.push(COMMON_PAIRS[i % COMMON_PAIRS.length]);
    else queries.push(PREFIXES[i % PREFIXES.length]);
  }
  return queries;
}

/** GET /api/search of the query mix in turn. */
function searchRequest(ctx) {
  return cyclePaths(queryMix(ctx).map((q) => `/api/search?q=${encodeURIComponent(q)}`));
}

async function search(ctx) {
  return ctx.measure([searchRequest(ctx)]);
}

/** The same mix one request at a time: the latency of a search itself, without queueing. */
async function searchSerial(ctx) {
  return ctx.measure([searchRequest(ctx)], { connections: 1 });
}

module.exports = [
  { key: 'search', name: 'GET /api/search?q= (rare + common words)', phase: 'search', run: search },
  {
    key: 'searchSerial',
    name: 'GET /api/search?q= at 1 connection',
    phase: 'search',
    run: searchSerial,
  },
];
module.exports.queryMix = queryMix;
module.exports.searchRequest = searchRequest;
module.exports.VERY_COMMON = VERY_COMMON;
module.exports.COMMON_PAIRS = COMMON_PAIRS;
module.exports.PREFIXES = PREFIXES;
