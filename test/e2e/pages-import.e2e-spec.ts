import { randomUUID } from 'node:crypto';
import { Database } from '../../src/common/database/database';
import { AuthUser } from '../../src/common/auth/auth-user';
import { RenderPool } from '../../src/pages/rendering/render-pool';
import { PageWriterService } from '../../src/pages/page-writer.service';
import { ImportedPage } from '../../src/pages/model/page-shapes';
import { createTestApp, DB_TYPE, TestApp } from '../support/test-app';
import { login, createUser } from '../support/users';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Corpus } = require('../../bench/corpus') as {
  Corpus: new (seed?: number) => {
    page(
      index: number,
      links: { slug: string; title: string }[],
      bytes: number,
    ): { slug: string; title: string; content: string; tags: string[] };
  };
};

/**
 * Import write speed: PageWriterService.upsertImported for many realistic pages (~5 KB each, tags,
 * links, media references) inside one transaction, as the importer calls it. The default size
 * keeps the suite fast; `PAGES_IMPORT_SPEED=10000` measures the full run and prints ms/page.
 */
const COUNT = Number(process.env.PAGES_IMPORT_SPEED ?? 300);

function corpusPages(count: number): ImportedPage[] {
  const corpus = new Corpus(7);
  const links: { slug: string; title: string }[] = [];
  const pages: ImportedPage[] = [];
  for (let i = 0; i < count; i++) {
    const page = corpus.page(i, links.slice(-50), 5000);
    const media = i % 10 === 0 ? `\n\n![diagram](/api/images/${randomUUID()}/content)\n` : '';
    pages.push({ ...page, content: page.content + media, verified: true });
    links.push({ slug: page.slug, title: page.title });
  }
  return pages;
}

describe('pages: imports (upsertImported)', () => {
  let t: TestApp;
  let actor: AuthUser;
  beforeAll(async () => {
    t = await createTestApp();
    const user = await createUser(t, 'admin');
    actor = {
      id: user.id,
      username: user.username,
      displayName: user.username,
      role: 'admin',
      groups: [],
      via: 'session',
    };
  });
  afterAll(() => t.close());

  const one = (rows: Record<string, unknown>[]) => rows[0];

  it('stores no HTML on import: the first read renders it once and stores it', async () => {
    const writer = t.get(PageWriterService);
    const mediaId = randomUUID();
    const content = `# Imported\n\nSee [next](../next#top), [ext](https://x.example) and [self](/docs/lazy).\n\n![d](/api/images/${mediaId}/content)\n`;
    const outcome = await t
      .get(Database)
      .transaction((tx) =>
        writer.upsertImported(
          tx,
          { slug: 'Docs/Lazy', title: 'Lazy', content, tags: ['Imp'] },
          actor,
        ),
      );
    expect(outcome).toBe('created');
    const query = (sql: string, params: unknown[] = []) => t.dataSource.query(sql, params);
    const page = one(await query('SELECT * FROM pages WHERE live_slug = ?', ['docs/lazy']));
    expect(page.html).toBeNull();
    expect(Boolean(Number(page.verified))).toBe(true);
    expect(
      await query('SELECT target_slug FROM page_links WHERE source_page_id = ?', [page.id]),
    ).toEqual([{ target_slug: 'next' }]);
    expect(
      await query('SELECT media_id FROM page_media_refs WHERE page_id = ?', [page.id]),
    ).toEqual([{ media_id: mediaId }]);
    expect(await query('SELECT tag FROM page_tags WHERE page_id = ?', [page.id])).toEqual([
      { tag: 'imp' },
    ]);
    expect(
      await query('SELECT revision, action FROM page_revisions WHERE page_id = ?', [page.id]),
    ).toEqual([{ revision: 1, action: 'imported' }]);

    const reader = await login(t, await createUser(t, 'reader'));
    const render = jest.spyOn(t.get(RenderPool), 'renderPage');
    try {
      const first = await reader.get('/api/pages/docs/lazy').expect(200);
      expect(first.body.html).toBe(
        '<h1 id="imported">Imported</h1>\n<p>See <a href="/next#top" class="kb-missing">next</a>, ' +
          '<a href="https://x.example">ext</a> and <a href="/docs/lazy">self</a>.</p>\n' +
          `<p><img src="/api/images/${mediaId}/content" alt="d" /></p>\n`,
      );
      expect(render).toHaveBeenCalledTimes(1);
      const stored = one(await query('SELECT html FROM pages WHERE id = ?', [page.id]));
      // The read marks the missing link for its reader; the stored HTML, shared, holds no mark.
      expect(stored.html).toBe(first.body.html.replace(' class="kb-missing"', ''));
      const second = await reader.get('/api/pages/docs/lazy').expect(200);
      expect(second.body.html).toBe(first.body.html);
      expect(render).toHaveBeenCalledTimes(1);
    } finally {
      render.mockRestore();
    }

    // Replacing with new content stores no HTML again; the next read renders the new content.
    const replaced = await t
      .get(Database)
      .transaction((tx) =>
        writer.upsertImported(
          tx,
          { slug: 'docs/lazy', title: 'Lazy', content: '[other](/other)' },
          actor,
        ),
      );
    expect(replaced).toBe('replaced');
    expect(one(await query('SELECT html FROM pages WHERE id = ?', [page.id])).html).toBeNull();
    expect(
      await query('SELECT target_slug FROM page_links WHERE source_page_id = ?', [page.id]),
    ).toEqual([{ target_slug: 'other' }]);
    const read = await reader.get('/api/pages/docs/lazy').expect(200);
    expect(read.body).toEqual(
      expect.objectContaining({
        revision: 2,
        html: '<p><a href="/other" class="kb-missing">other</a></p>\n',
        tags: ['imp'],
      }),
    );
  });

  it(`imports ${COUNT} pages and reports ms/page`, async () => {
    const docs = corpusPages(COUNT);
    const writer = t.get(PageWriterService);
    const db = t.get(Database);
    const started = process.hrtime.bigint();
    const outcomes = await db.transaction(async (tx) => {
      const result: string[] = [];
      for (const doc of docs) result.push(await writer.upsertImported(tx, doc, actor));
      return result;
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(
      `[${DB_TYPE}] upsertImported: ${COUNT} pages in ${ms.toFixed(0)} ms = ${(ms / COUNT).toFixed(2)} ms/page`,
    );
    expect(outcomes.every((o) => o === 'created')).toBe(true);
    const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM pages WHERE html IS NULL');
    expect(Number(n)).toBe(COUNT);
    const [{ l }] = await t.dataSource.query('SELECT COUNT(*) AS l FROM page_links');
    expect(Number(l)).toBeGreaterThan(COUNT);
  }, 300_000);
});
