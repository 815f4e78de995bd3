'use strict';
// The mixed workload of a busy wiki, on the large database (phase "large", BENCH_SEARCH_PAGES
// pages): at 50 connections, 85% page reads (a random slug of every page), 8% searches (the
// rare/common mix of search.js), 5% lists (recent pages, tags, the second page of a search for
// a common word) and 2% page updates with If-Match; one autocannon run, times by class.
const { prng } = require('../corpus');
const { cyclePaths, mix, pageRead, pageUpdate } = require('../requests');
const { COMMON_PAIRS, VERY_COMMON, searchRequest } = require('./search');

const CLASSES = [
  { kind: 'read', weight: 85 },
  { kind: 'search', weight: 8 },
  { kind: 'list', weight: 5 },
  { kind: 'update', weight: 2 },
];

/** The second page of results of the common queries: page 1 asked once for its cursor. */
async function secondPages(ctx) {
  const paths = [];
  for (const q of [...VERY_COMMON, ...COMMON_PAIRS]) {
    const res = await fetch(`${ctx.url}/api/search?q=${encodeURIComponent(q)}`, {
      headers: { authorization: `Bearer ${ctx.token}` },
    });
    if (!res.ok) throw new Error(`search ${q}: ${res.status} ${await res.text()}`);
    const { nextCursor } = await res.json();
    if (nextCursor)
      paths.push(`/api/search?q=${encodeURIComponent(q)}&cursor=${encodeURIComponent(nextCursor)}`);
  }
  if (paths.length === 0) throw new Error('no common query has a second page of results');
  return paths;
}

async function mixed(ctx) {
  const lists = [];
  for (const path of await secondPages(ctx)) lists.push('/api/recent', '/api/tags', path);
  const requests = {
    read: pageRead(ctx.slugs),
    search: searchRequest(ctx),
    list: cyclePaths(lists),
    update: pageUpdate(ctx.pages, ctx.corpus),
  };
  const row = await ctx.measure(
    [
      mix(
        CLASSES.map((c) => ({ ...c, request: requests[c.kind] })),
        prng(11),
      ),
    ],
    { byClass: true },
  );
  row.note = `${CLASSES.map((c) => `${c.weight}% ${c.kind}`).join(', ')} (lists: GET /api/recent, /api/tags and a second page of results of a common search in turn); page reads over all ${ctx.slugs.length.toLocaleString('en')} pages, updates with If-Match over the ${ctx.pages.length.toLocaleString('en')} seeded through the API`;
  return row;
}

module.exports = [
  {
    key: 'mixed',
    name: 'Mixed workload (85% read, 8% search, 5% list, 2% update)',
    phase: 'large',
    run: mixed,
  },
];
module.exports.CLASSES = CLASSES;
