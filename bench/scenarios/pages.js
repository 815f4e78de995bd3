'use strict';
// Page scenarios, run against the 10,000-page database. Each is a function of the shared
// context (see bench/run.js): ctx.measure(requests) runs autocannon with the bearer token.
const { pageRead, pageUpdate } = require('../requests');

const slugsOf = (ctx) => ctx.pages.map((p) => p.slug);

module.exports = [
  {
    key: 'pageRead',
    name: 'GET /api/pages/{slug}',
    phase: 'pages',
    run: (ctx) => ctx.measure([pageRead(slugsOf(ctx))]),
  },
  {
    key: 'pageRaw',
    name: 'GET /api/pages/{slug}/raw',
    phase: 'pages',
    run: (ctx) => ctx.measure([pageRead(slugsOf(ctx), '/raw')]),
  },
  {
    key: 'pageList',
    name: 'GET /api/pages?limit=50',
    phase: 'pages',
    run: (ctx) => ctx.measure([{ method: 'GET', path: '/api/pages?limit=50' }]),
  },
  {
    key: 'pageUpdate',
    name: 'PUT /api/pages/{slug} (If-Match)',
    phase: 'pages',
    run: (ctx) => ctx.measure([pageUpdate(ctx.pages, ctx.corpus)]),
  },
];
