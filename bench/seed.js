'use strict';
// Seeding the benchmark database.
// 1. `seedViaApi`: the realistic pages go through the real API (POST /api/pages), so rendering,
//    revisions, links, tags and the search index are written exactly as in production.
// 2. `bulkAddSearchPages`: the extra pages for the 100,000-page search measurement are written
//    with SQL batches straight into the SQLite file while the server is stopped (through the API
//    they would take many minutes): page rows copied from a seeded page with the generated text
//    put in, their tags, and their search index rows built with the app's own text reduction.
//    Each carries the stored rendering of a seeded page (rendering 90,000 pages would take
//    minutes; without one, the first read of each page would render and store it, and reads
//    of the large database would measure those writes).
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');

async function seedViaApi({ url, token, corpus, count, concurrency = 8, onProgress }) {
  const pages = new Array(count);
  const linkPool = [];
  let next = 0;
  let done = 0;
  async function worker() {
    for (;;) {
      const index = next++;
      if (index >= count) return;
      const page = corpus.page(index, linkPool);
      const res = await fetch(`${url}/api/pages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          slug: page.slug,
          title: page.title,
          content: page.content,
          tags: page.tags,
        }),
      });
      if (res.status !== 201)
        throw new Error(`POST /api/pages ${page.slug}: ${res.status} ${await res.text()}`);
      const body = await res.json();
      pages[index] = {
        slug: body.slug,
        title: body.title,
        revision: body.revision,
        content: page.content,
        tags: page.tags,
      };
      linkPool.push({ slug: body.slug, title: body.title });
      if (++done % 1000 === 0) onProgress?.(done);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return pages;
}

/** Writes `count` more pages; answers their slugs. */
function bulkAddSearchPages({ root, sqlitePath, corpus, count, startIndex, batch = 5000 }) {
  const Database = require(join(root, 'node_modules', 'better-sqlite3'));
  const { markdownToPlainText } = require(
    join(root, 'dist', 'pages', 'model', 'search', 'search-text.js'),
  );
  const { gramsOf } = require(join(root, 'dist', 'pages', 'model', 'search', 'search-grams.js'));
  const db = new Database(sqlitePath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  try {
    const columns = db
      .prepare('PRAGMA table_info(pages)')
      .all()
      .map((c) => c.name);
    const template = db.prepare('SELECT * FROM pages WHERE live_slug IS NOT NULL LIMIT 1').get();
    if (!template) throw new Error('bulkAddSearchPages needs one seeded page as a template');
    const renderings =
      'html' in template
        ? db
            .prepare(
              'SELECT html, html_site_version FROM pages WHERE live_slug IS NOT NULL AND html IS NOT NULL LIMIT 1000',
            )
            .all()
        : [];
    const insertPage = db.prepare(
      `INSERT INTO pages (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    const tagColumns = db
      .prepare('PRAGMA table_info(page_tags)')
      .all()
      .map((c) => c.name);
    const insertTag = tagColumns.includes('tag')
      ? db.prepare('INSERT OR IGNORE INTO page_tags (page_id, tag) VALUES (?, ?)')
      : null;
    const insertSearch = db.prepare(
      'INSERT INTO page_search (rowid, page_id, title, body, tags, title_grams, body_grams) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertRowid = db.prepare('INSERT INTO search_rowids (page_id, fts_rowid) VALUES (?, ?)');
    const slugs = [];
    let rowid = db.prepare('SELECT COALESCE(MAX(rowid), 0) AS m FROM page_search').get().m;
    const write = db.transaction((from, to) => {
      for (let i = from; i < to; i++) {
        const page = corpus.page(startIndex + i, []);
        const id = randomUUID();
        const row = {
          ...template,
          id,
          slug: page.slug,
          live_slug: page.slug,
          title: page.title,
          content: page.content,
          tags: JSON.stringify(page.tags),
        };
        if (renderings.length > 0) {
          const rendering = renderings[i % renderings.length];
          row.html = rendering.html;
          row.html_site_version = rendering.html_site_version;
        }
        if ('revision' in row) row.revision = 1;
        insertPage.run(row);
        slugs.push(page.slug);
        for (const tag of page.tags) insertTag?.run(id, tag);
        rowid += 1;
        // The columns the app's index writes (page-search-index.ts indexedColumns, SQLite).
        const body = markdownToPlainText(page.content);
        const tags = page.tags.join(' ');
        insertSearch.run(
          rowid,
          id,
          page.title,
          body,
          tags,
          gramsOf(page.title, { minTokenSize: 0 }),
          gramsOf(`${body} ${tags}`, { minTokenSize: 0 }),
        );
        insertRowid.run(id, rowid);
      }
    });
    for (let from = 0; from < count; from += batch) write(from, Math.min(count, from + batch));
    return slugs;
  } finally {
    db.close();
  }
}

module.exports = { seedViaApi, bulkAddSearchPages };
