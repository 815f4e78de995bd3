import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { createPage, search, slugsFor } from '../support/search-support';

/** Article 1 of the Universal Declaration of Human Rights in ten languages (licence in the file). */
const UDHR = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/search/udhr-article-1.json'), 'utf8'),
) as { texts: Record<string, string> };

/**
 * Search in every language (docs/search.md): words inside runs of Chinese, Japanese, Korean and
 * Thai, accents folded, and words of one or two letters — the same answers on both databases.
 */
describe('search in every language', () => {
  let t: TestApp;
  let admin: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    admin = await signedIn(t, 'admin');
    reader = await signedIn(t, 'reader');
    for (const [lang, text] of Object.entries(UDHR.texts)) {
      await createPage(admin, {
        slug: `udhr/${lang}`,
        title: `Article 1 (${lang})`,
        content: text,
      });
    }
    await createPage(admin, {
      slug: 'eng/build',
      title: 'How we build',
      content: 'We build the Go services in CI, and the C# client ships with every release.',
    });
  });
  afterAll(() => t.close());

  it.each([
    ['尊严', ['udhr/zh']], // inside 在尊严和权利上一律平等
    ['一律平等', ['udhr/zh']],
    ['自由', ['udhr/ja', 'udhr/zh']], // 生而自由 and 自由であり
    ['尊厳', ['udhr/ja']],
    ['同胞の精神', ['udhr/ja']],
    ['理性', ['udhr/ja', 'udhr/zh']],
    ['자유', ['udhr/ko']], // inside 자유로우며
    ['형제애', ['udhr/ko']],
    ['เสมอภาค', ['udhr/th']], // inside a run of Thai with no spaces
    ['มโนธรรม', ['udhr/th']],
    ['достоинстве', ['udhr/ru']],
    ['αξιοπρέπεια', ['udhr/el']],
    ['الكرامة', ['udhr/ar']],
    ['בתבונה', ['udhr/he']],
    ['egaux dignite', ['udhr/fr']], // accents folded
    ['dignity', ['udhr/en']],
  ])('finds %s', async (q, slugs) => {
    expect((await slugsFor(reader, q)).sort()).toEqual(slugs);
  });

  it('does not find a run that is not in the text, nor pairs out of order', async () => {
    expect(await slugsFor(reader, '东京')).toEqual([]);
    expect(await slugsFor(reader, '平等一律')).toEqual([]);
    expect(await slugsFor(reader, '由自')).toEqual([]);
  });

  it('finds words of one and two letters on both databases', async () => {
    expect(await slugsFor(reader, 'Go')).toContain('eng/build');
    expect(await slugsFor(reader, 'CI')).toEqual(['eng/build']);
    expect(await slugsFor(reader, 'C#')).toEqual(['eng/build']);
    expect(await slugsFor(reader, 'CI release')).toEqual(['eng/build']);
  });

  it('marks the substring that matched in the snippet', async () => {
    const body = await search(reader, '尊严');
    expect(body.items[0].snippet).toContain('<mark>尊严</mark>');
    const thai = await search(reader, 'เสมอภาค');
    expect(thai.items[0].snippet).toContain('<mark>เสมอภาค</mark>');
  });

  it('keeps the index in step with edits: a run removed is no longer found', async () => {
    await createPage(admin, { slug: 'tmp/tokyo', title: '会議', content: '東京都の会議室' });
    expect(await slugsFor(reader, '東京')).toEqual(['tmp/tokyo']);
    const page = await admin.get('/api/pages/tmp/tokyo').expect(200);
    await admin
      .put('/api/pages/tmp/tokyo')
      .set('If-Match', page.headers.etag as string)
      .send({ content: '大阪の会議室' })
      .expect(200);
    expect(await slugsFor(reader, '東京')).toEqual([]);
    expect(await slugsFor(reader, '大阪')).toEqual(['tmp/tokyo']);
    // Titles hold runs too: the quick switcher finds them.
    const suggest = await reader.get(`/api/search/suggest?q=${encodeURIComponent('会議')}`);
    expect(suggest.body.items).toEqual([{ slug: 'tmp/tokyo', title: '会議' }]);
  });
});
