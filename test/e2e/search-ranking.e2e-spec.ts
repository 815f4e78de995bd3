import { Database } from '../../src/common/database/database';
import { SqlitePageSearchIndex } from '../../src/pages/store/search/sqlite-page-search.index';
import { tokenize } from '../../src/pages/model/search/search-terms';
import { createTestApp, DB_TYPE, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { createPage, search } from '../support/search-support';

describe('search ranking', () => {
  let t: TestApp;
  let admin: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t, 'admin');
    reader = await signedIn(t, 'reader');
    // Oldest first: p0 .. p5; titles of p1 and p4 hold the word, every body does.
    for (let i = 0; i < 6; i++) {
      const inTitle = i === 1 || i === 4;
      await createPage(admin, {
        slug: `rank/p${i}`,
        title: inTitle ? `Commonword handbook ${i}` : `Chapter ${i}`,
        content: `Some commonword text ${'commonword '.repeat(i)}number ${i}.`,
      });
    }
    for (let i = 0; i < 4; i++) {
      await createPage(admin, {
        slug: `other/p${i}`,
        title: `Other ${i}`,
        content: 'Nothing relevant.',
      });
    }
  });
  afterAll(() => t.close());

  it('ranks title hits first through the API and pages without gaps or repeats', async () => {
    const first = await search(reader, 'commonword', '&limit=4');
    expect(
      first.items
        .slice(0, 2)
        .map((i) => i.slug)
        .sort(),
    ).toEqual(['rank/p1', 'rank/p4']);
    const second = await search(reader, 'commonword', `&limit=4&cursor=${first.nextCursor}`);
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((i) => i.slug).sort()).toEqual([
      'rank/p0',
      'rank/p1',
      'rank/p2',
      'rank/p3',
      'rank/p4',
      'rank/p5',
    ]);
  });

  (DB_TYPE === 'sqlite' ? it : it.skip)(
    'over many matches (FTS5): title matches first, then the rest, most recently saved first, at any offset',
    async () => {
      // A threshold of 3 matches puts these 6 into the many-matches path.
      const index = new SqlitePageSearchIndex(3);
      const sql = t.get(Database).sql();
      const terms = tokenize('commonword ');
      const ids: { id: string }[] = await t.dataSource.query(
        "SELECT id FROM pages WHERE slug LIKE 'rank/%' ORDER BY slug",
      );
      const [p0, p1, p2, p3, p4, p5] = ids.map((r) => r.id);
      const expected = [p4, p1, p5, p3, p2, p0];
      await expect(index.search(sql, terms, 0, 10)).resolves.toEqual(expected);
      for (let offset = 0; offset < 6; offset++) {
        await expect(index.search(sql, terms, offset, 2)).resolves.toEqual(
          expected.slice(offset, offset + 2),
        );
      }
      await expect(index.search(sql, terms, 6, 2)).resolves.toEqual([]);
      // Below the threshold the same words are ranked by bm25: the most title-heavy first.
      const ranked = await new SqlitePageSearchIndex(100).search(sql, terms, 0, 10);
      expect(ranked.slice(0, 2).sort()).toEqual([p1, p4].sort());
      expect(ranked.sort()).toEqual([...expected].sort());
    },
  );
});
