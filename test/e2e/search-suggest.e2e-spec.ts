import { fieldErrors, problem } from '../support/problems';
import { createPage, fillerPages, slugsFor } from '../support/search-support';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

describe('search as you type: prefix search and GET /api/search/suggest', () => {
  let t: TestApp;
  let admin: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'staff');
    admin = await signedIn(t, 'admin');
    reader = await signedIn(t, 'reader');
  });

  async function suggest(client: Client, q: string, limit?: number) {
    const query = new URLSearchParams({ q });
    if (limit) query.set('limit', String(limit));
    return (await client.get(`/api/search/suggest?${query}`).expect(200)).body;
  }

  it('matches the last word of a search as a prefix, without a trailing *', async () => {
    await createPage(admin, {
      slug: 'ops/rollback',
      title: 'Rollback guide',
      content: 'How to roll back a release.',
    });
    await createPage(admin, { slug: 'ops/other', title: 'Other', content: 'Nothing here.' });
    expect(await slugsFor(reader, 'rollb')).toEqual(['ops/rollback']);
    expect(await slugsFor(reader, 'release rollb')).toEqual(['ops/rollback']);
    // Earlier words match whole: "relea" is not "release".
    expect(await slugsFor(reader, 'relea rollback')).toEqual([]);
    // Two letters already find it, on both databases.
    expect(await slugsFor(reader, 'rol')).toEqual(['ops/rollback']);
    expect(await slugsFor(reader, 'ro')).toEqual(['ops/rollback']);
  });

  it('keeps a short prefix bounded: a 2-letter prefix over many pages answers a page and a cursor', async () => {
    await fillerPages(admin, 30);
    const first = await reader.get('/api/search?q=fi&limit=10').expect(200);
    // Both databases: MariaDB keeps a truncated word however short (`fi*`).
    expect(first.body.items).toHaveLength(10);
    expect(first.body.nextCursor).toEqual(expect.any(String));
  });

  it('needs a caller and a q, and refuses a bad limit', async () => {
    await anonymous(t)
      .get('/api/search/suggest?q=x')
      .expect(401)
      .expect((r) => expect(r.body).toEqual(problem(401, 'unauthenticated')));
    await reader
      .get('/api/search/suggest')
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'q', code: 'required' })));
    await reader
      .get('/api/search/suggest?q=%20')
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'q', code: 'blank' })));
    await reader
      .get('/api/search/suggest?q=a&limit=21')
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'limit', code: 'out_of_range' })));
  });

  it('suggests visible pages by slug prefix and by title words, titles starting with the text first', async () => {
    await createPage(admin, { slug: 'handbook/onboarding', title: 'Onboarding', content: 'x' });
    await createPage(admin, { slug: 'handbook/holidays', title: 'Holiday calendar', content: 'x' });
    await createPage(admin, {
      slug: 'team/welcome',
      title: 'Welcome and onboarding tips',
      content: 'x',
    });
    await createPage(admin, {
      slug: 'handbook/salaries',
      title: 'Salary bands',
      content: 'x',
      groups: ['staff'],
    });

    expect(await suggest(reader, 'handbook/')).toEqual({
      items: [
        { slug: 'handbook/holidays', title: 'Holiday calendar' },
        { slug: 'handbook/onboarding', title: 'Onboarding' },
      ],
    });
    expect(await suggest(reader, 'onboa')).toEqual({
      items: [
        { slug: 'handbook/onboarding', title: 'Onboarding' },
        { slug: 'team/welcome', title: 'Welcome and onboarding tips' },
      ],
    });
    expect(await suggest(reader, 'welcome onb')).toEqual({
      items: [{ slug: 'team/welcome', title: 'Welcome and onboarding tips' }],
    });
    // A page in a group the reader is not in is never suggested, by slug or title.
    expect(await suggest(reader, 'handbook/sal')).toEqual({ items: [] });
    expect(await suggest(reader, 'salary')).toEqual({ items: [] });
    expect(await suggest(admin, 'salary')).toEqual({
      items: [{ slug: 'handbook/salaries', title: 'Salary bands' }],
    });
    expect((await suggest(reader, 'handbook', 1)).items).toHaveLength(1);
    // Binned pages are gone from suggestions.
    await admin.delete('/api/pages/handbook/holidays').expect(204);
    expect((await suggest(reader, 'handbook/')).items.map((i: { slug: string }) => i.slug)).toEqual(
      ['handbook/onboarding'],
    );
  });
});
