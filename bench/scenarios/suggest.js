'use strict';
// Quick-switcher suggestions (GET /api/search/suggest) as someone types: every prefix of a
// title word from 2 characters up (the 2- and 3-letter ones expand to the most words), a few
// two-word titles with the last word half typed, rare code names, and slug prefixes.
const { DOMAIN } = require('../corpus');
const { cyclePaths } = require('../requests');

const SPACES = ['eng/', 'ops/', 'people/', 'product/', 'finance/', 'security/', 'support/'];

function typed(word) {
  const prefixes = [];
  for (let n = 2; n <= Math.min(word.length, 7); n++) prefixes.push(word.slice(0, n));
  return prefixes;
}

function suggestMix(ctx, size = 400) {
  const queries = [];
  for (let i = 0; queries.length < size; i++) {
    const r = i % 10;
    if (r < 6) queries.push(...typed(DOMAIN[(i * 31) % DOMAIN.length]));
    else if (r < 7)
      queries.push(`${DOMAIN[i % DOMAIN.length]} ${DOMAIN[(i * 7) % DOMAIN.length].slice(0, 3)}`);
    else if (r < 8) queries.push(...typed(ctx.corpus.rare[(i * 7919) % ctx.corpus.rare.length]));
    else
      queries.push(`${SPACES[i % SPACES.length]}${DOMAIN[(i * 13) % DOMAIN.length].slice(0, 2)}`);
  }
  return queries.slice(0, size);
}

/** GET /api/search/suggest of the typing mix in turn, at the bench's 50 connections. */
async function suggest(ctx) {
  return ctx.measure([
    cyclePaths(suggestMix(ctx).map((q) => `/api/search/suggest?q=${encodeURIComponent(q)}`)),
  ]);
}

module.exports = [
  {
    key: 'suggest',
    name: 'GET /api/search/suggest?q= (typing: 2-7 letter prefixes, slugs)',
    phase: 'search',
    run: suggest,
  },
];
module.exports.suggestMix = suggestMix;
