'use strict';
// Page scenarios, run against the 10,000-page database. Each is a function of the shared
// context (see bench/run.js): ctx.measure(requests) runs autocannon with the bearer token.

function randomPick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

function encodeSlug(slug) {
  return slug.split('/').map(encodeURIComponent).join('/');
}

async function pageRead(ctx) {
  return ctx.measure([
    {
      method: 'GET',
      setupRequest: (req) => ({
        ...req,
        path: `/api/pages/${encodeSlug(randomPick(ctx.pages).slug)}`,
      }),
    },
  ]);
}

async function pageRaw(ctx) {
  return ctx.measure([
    {
      method: 'GET',
      setupRequest: (req) => ({
        ...req,
        path: `/api/pages/${encodeSlug(randomPick(ctx.pages).slug)}/raw`,
      }),
    },
  ]);
}

async function pageList(ctx) {
  return ctx.measure([{ method: 'GET', path: '/api/pages?limit=50' }]);
}

/**
 * PUT with If-Match: every request takes the next page of the pool (50 in flight, 10,000 pages,
 * so no two concurrent requests touch the same page) and the revision it last saw; a 409/412
 * would be counted separately in the status table, not hidden.
 */
async function pageUpdate(ctx) {
  let next = 0;
  let edit = 0;
  return ctx.measure([
    {
      method: 'PUT',
      setupRequest: (req, context) => {
        const page = ctx.pages[next++ % ctx.pages.length];
        context.page = page;
        edit += 1;
        const content = `${page.content ?? ''}\n\nEdit ${edit}: ${ctx.corpus.sentence()}\n`;
        page.content = content;
        return {
          ...req,
          path: `/api/pages/${encodeSlug(page.slug)}`,
          headers: {
            ...req.headers,
            'content-type': 'application/json',
            'if-match': `"${page.revision}"`,
          },
          body: JSON.stringify({ title: page.title, content, tags: page.tags }),
        };
      },
      onResponse: (status, body, context) => {
        if (status === 200) context.page.revision = JSON.parse(body).revision;
      },
    },
  ]);
}

module.exports = [
  { key: 'pageRead', name: 'GET /api/pages/{slug}', phase: 'pages', run: pageRead },
  { key: 'pageRaw', name: 'GET /api/pages/{slug}/raw', phase: 'pages', run: pageRaw },
  { key: 'pageList', name: 'GET /api/pages?limit=50', phase: 'pages', run: pageList },
  { key: 'pageUpdate', name: 'PUT /api/pages/{slug} (If-Match)', phase: 'pages', run: pageUpdate },
];
