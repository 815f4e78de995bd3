'use strict';
// The autocannon request entries the scenarios share (bench/scenarios/*.js, the cluster
// benchmark): each is one `requests` entry whose setupRequest builds the next request, so a
// scenario measures it alone and the mixed workload (`mix`) deals them out by weight.

function encodeSlug(slug) {
  return slug.split('/').map(encodeURIComponent).join('/');
}

/** Where the update walk of each pages array stands, and the edits made (page text). */
const walks = new WeakMap();
let edits = 0;

function randomPick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

/** GET /api/pages/{slug}[suffix] of a random slug of `slugs` per request. */
function pageRead(slugs, suffix = '') {
  return {
    method: 'GET',
    setupRequest: (req) => ({
      ...req,
      path: `/api/pages/${encodeSlug(randomPick(slugs))}${suffix}`,
    }),
  };
}

/** GET of `paths` in turn. */
function cyclePaths(paths) {
  let next = 0;
  return {
    method: 'GET',
    setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }),
  };
}

/**
 * PUT /api/pages/{slug} with If-Match: every request takes the next page of `pages` (the seeded
 * `{slug, title, revision, content, tags}`) that has no update in flight, with the revision it
 * last saw, and appends a sentence; so a 409/412 would show in the status counts, not hide. The
 * walk goes on where the previous run left it. A request whose answer a run's end dropped leaves
 * its page marked in flight (its revision unknown), and the walk skips that page from then on.
 */
function pageUpdate(pages, corpus) {
  const next = () => {
    for (let tries = 0; tries < pages.length; tries++) {
      const page = pages[(walks.get(pages) ?? 0) % pages.length];
      walks.set(pages, (walks.get(pages) ?? 0) + 1);
      if (!page.inFlight) return page;
    }
    throw new Error('every page has an update in flight');
  };
  return {
    method: 'PUT',
    setupRequest: (req, context) => {
      const page = next();
      page.inFlight = true;
      context.page = page;
      edits += 1;
      page.content = `${page.content ?? ''}\n\nEdit ${edits}: ${corpus.sentence()}\n`;
      return {
        ...req,
        path: `/api/pages/${encodeSlug(page.slug)}`,
        headers: {
          ...req.headers,
          'content-type': 'application/json',
          'if-match': `"${page.revision}"`,
        },
        body: JSON.stringify({ title: page.title, content: page.content, tags: page.tags }),
      };
    },
    onResponse: (status, body, context) => {
      if (status === 200) context.page.revision = JSON.parse(body).revision;
      context.page.inFlight = false;
    },
  };
}

/**
 * One request entry dealing out `classes` ({kind, weight, request}, `request` one of the
 * entries above) in proportion to their weights: a fixed shuffled schedule of
 * sum(weights) slots, walked in turn by all connections, so the mix is exact over every
 * full cycle. Each request carries its class in `context.kind` (measure's `byClass`).
 */
function mix(classes, random = Math.random) {
  const schedule = classes.flatMap((c) => Array(c.weight).fill(c));
  for (let i = schedule.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [schedule[i], schedule[j]] = [schedule[j], schedule[i]];
  }
  const byKind = new Map(classes.map((c) => [c.kind, c.request]));
  let next = 0;
  return {
    method: 'GET',
    setupRequest: (req, context) => {
      const { kind, request } = schedule[next++ % schedule.length];
      context.kind = kind;
      const base = { ...req, method: request.method ?? 'GET', path: request.path ?? req.path };
      return request.setupRequest ? request.setupRequest(base, context) : base;
    },
    onResponse: (status, body, context, headers) =>
      byKind.get(context.kind)?.onResponse?.(status, body, context, headers),
  };
}

module.exports = { encodeSlug, randomPick, pageRead, cyclePaths, pageUpdate, mix };
