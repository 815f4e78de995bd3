import { allItems, createPage } from '../support/pages';
import { png } from '../support/images';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

/** `GET /api/reports/links`: broken internal links and missing media, by page and line. */
describe('GET /api/reports/links', () => {
  let t: TestApp;
  let admin: Client;
  let outsider: Client;
  let insider: Client;
  let imageUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    await createGroup(t, 'hr');
    admin = await signedIn(t, 'admin');
    insider = await signedIn(t, 'reader', { groups: ['hr'] });
    outsider = await signedIn(t, 'reader');
    const image = await admin.post('/api/images').attach('file', png(4, 4), 'dot.png').expect(201);
    imageUrl = image.body.url as string;
    await createPage(admin, 'docs/index', {
      title: 'Docs',
      content: [
        'See [setup](setup) and [the gone page](gone).', // 1
        '', // 2
        `![dot](${imageUrl})`, // 3
        '![lost](/api/images/00000000-0000-4000-8000-000000000000/content)', // 4
        '', // 5
        'Ask [HR](/hr/secret) or read [external](https://example.com).', // 6
        '![relative](pics/diagram.png)', // 7
      ].join('\n'),
    });
    await createPage(admin, 'docs/setup', {
      title: 'Setup',
      content: 'Back to [index](index#top), then [old](../docs-old/page).',
    });
    await createPage(admin, 'docs-old/page', {
      title: 'Old',
      content: 'Broken but outside the prefix: [nowhere](/nowhere).',
    });
    await createPage(admin, 'hr/secret', {
      title: 'Secret',
      groups: ['hr'],
      content: 'Only HR: [missing](/hr/missing-plan) and [docs](/docs/index).',
    });
  });
  afterAll(() => t?.close());

  it('needs a signed-in caller', async () => {
    const res = await anonymous(t).get('/api/reports/links').expect(401);
    expect(res.body).toEqual(problem(401, 'unauthenticated'));
  });

  it('lists every broken link and missing image of the visible pages with its line', async () => {
    const res = await admin.get('/api/reports/links?prefix=docs').expect(200);
    expect(res.body).toEqual({
      items: [
        { page: 'docs/index', target: 'gone', line: 1, kind: 'link' },
        {
          page: 'docs/index',
          target: '/api/images/00000000-0000-4000-8000-000000000000/content',
          line: 4,
          kind: 'image',
        },
        { page: 'docs/index', target: 'pics/diagram.png', line: 7, kind: 'image' },
      ],
      nextCursor: null,
    });
    const all = await allItems(admin, '/api/reports/links', 1);
    expect(all.map((i) => `${i.page}:${i.line}:${i.target}`)).toEqual([
      'docs-old/page:1:/nowhere',
      'docs/index:1:gone',
      'docs/index:4:/api/images/00000000-0000-4000-8000-000000000000/content',
      'docs/index:7:pics/diagram.png',
      'hr/secret:1:/hr/missing-plan',
    ]);
  });

  it('never names a page the caller cannot see, and does not reveal that it exists', async () => {
    const items = await allItems(outsider, '/api/reports/links', 2);
    expect(items.map((i) => i.page)).not.toContain('hr/secret');
    // The link to the invisible page is as broken as the link to a missing one: an outsider
    // cannot tell /hr/secret (exists) from /gone (does not).
    expect(items).toContainEqual({
      page: 'docs/index',
      target: '/hr/secret',
      line: 6,
      kind: 'link',
    });
    expect(items).toContainEqual({ page: 'docs/index', target: 'gone', line: 1, kind: 'link' });
    expect(JSON.stringify(items)).not.toContain('missing-plan');

    // A prefix naming the invisible page's folder answers like an empty one.
    const probe = await outsider.get('/api/reports/links?prefix=hr').expect(200);
    expect(probe.body).toEqual({ items: [], nextCursor: null });
    const empty = await outsider.get('/api/reports/links?prefix=nothing-here').expect(200);
    expect(empty.body).toEqual(probe.body);

    // A member of the group sees the page and its own broken link, and the link works for them.
    const hr = await allItems(insider, '/api/reports/links');
    expect(hr).toContainEqual({
      page: 'hr/secret',
      target: '/hr/missing-plan',
      line: 1,
      kind: 'link',
    });
    expect(hr.map((i) => i.target)).not.toContain('/hr/secret');
  });

  it('pages through long reports without losing or repeating an item', async () => {
    const lines = Array.from({ length: 7 }, (_, i) => `[x${i}](/absent-${i})`).join('\n\n');
    await createPage(admin, 'many/a', { title: 'A', content: lines });
    await createPage(admin, 'many/b', { title: 'B', content: lines });
    const first = await admin.get('/api/reports/links?prefix=many&limit=5').expect(200);
    expect(first.body.items).toHaveLength(5);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const all = await allItems(admin, '/api/reports/links?prefix=many', 3);
    expect(all).toHaveLength(14);
    expect(all.map((i) => `${i.page}:${i.line}`)).toEqual([
      ...Array.from({ length: 7 }, (_, i) => `many/a:${i * 2 + 1}`),
      ...Array.from({ length: 7 }, (_, i) => `many/b:${i * 2 + 1}`),
    ]);
  });

  it('refuses bad parameters', async () => {
    const badLimit = await admin.get('/api/reports/links?limit=0').expect(422);
    expect(badLimit.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [{ field: 'limit', code: 'out_of_range', message: expect.any(String) }],
      }),
    );
    const badCursor = await admin.get('/api/reports/links?cursor=bm9wZQ').expect(400);
    expect(badCursor.body).toEqual(problem(400, 'invalid_cursor'));
    const badPrefix = await admin.get('/api/reports/links?prefix=a/../b').expect(422);
    expect(badPrefix.body.errors[0]).toMatchObject({ field: 'prefix', code: 'invalid_slug' });
  });
});
