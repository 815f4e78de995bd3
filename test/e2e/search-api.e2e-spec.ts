import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';
import { fieldErrors, problem } from '../support/problems';
import { createPage, fillerPages, search, slugsFor } from '../support/search-support';

describe('GET /api/search', () => {
  let t: TestApp;
  let admin: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    reader = await signedIn(t, 'reader');
  });

  it('needs a signed-in caller, session or bearer', async () => {
    await anonymous(t)
      .get('/api/search?q=x')
      .expect(401)
      .expect((r) => expect(r.body).toEqual(problem(401, 'unauthenticated')));
    await createPage(admin, { slug: 'ops/zanzibar', title: 'Zanzibar', content: 'text' });
    const bearer = await reader.withToken();
    expect(await slugsFor(bearer, 'zanzibar')).toEqual(['ops/zanzibar']);
  });

  it('refuses a missing, blank, repeated or too long q and bad paging with problems', async () => {
    await reader
      .get('/api/search')
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'q', code: 'required' })));
    await reader
      .get('/api/search?q=%20%20')
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'q', code: 'blank' })));
    await reader
      .get(`/api/search?q=${'a'.repeat(257)}`)
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'q', code: 'too_long' })));
    await reader
      .get('/api/search?q=a&q=b')
      .expect(422)
      .expect((r) => expect(r.body.errors[0].field).toBe('q'));
    await reader
      .get('/api/search?q=a&limit=0')
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'limit', code: 'out_of_range' })));
    await reader
      .get('/api/search?q=a&cursor=!!')
      .expect(400)
      .expect((r) => expect(r.body).toEqual(problem(400, 'invalid_cursor')));
    const forged = Buffer.from(JSON.stringify({ o: -5 })).toString('base64url');
    await reader.get(`/api/search?q=a&cursor=${forged}`).expect(400);
    await reader
      .get('/api/search?q=a&sort=x')
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'sort', code: 'invalid' })));
  });

  it('ranks a title hit above a body-only hit and answers the contract shape', async () => {
    await fillerPages(admin, 4);
    await createPage(admin, {
      slug: 'eng/body-only',
      title: 'Cluster notes',
      content: 'We run kubernetes in two regions. Upgrading kubernetes takes a day.',
      tags: ['infra'],
    });
    const titled = await createPage(admin, {
      slug: 'eng/kubernetes-upgrade',
      title: 'Kubernetes upgrade guide',
      content: 'Drain the nodes first, then upgrade the control plane.',
      tags: ['runbook'],
    });
    const body = await search(reader, 'kubernetes');
    expect(body).toEqual({
      items: [
        {
          slug: 'eng/kubernetes-upgrade',
          title: 'Kubernetes upgrade guide',
          snippet: expect.any(String),
          tags: ['runbook'],
          updatedAt: titled.updatedAt,
        },
        {
          slug: 'eng/body-only',
          title: 'Cluster notes',
          snippet: expect.stringContaining('<mark>kubernetes</mark>'),
          tags: ['infra'],
          updatedAt: expect.any(String),
        },
      ],
      nextCursor: null,
      didYouMean: null,
    });
  });

  it('highlights every hit in an HTML-escaped snippet and folds case and accents', async () => {
    await fillerPages(admin, 3);
    await createPage(admin, {
      slug: 'docs/escaping',
      title: 'Escaping',
      content: 'When a < b && c > d, the "Zanzibar" protocol\'s café rule applies; zanzibar again.',
    });
    const [item] = (await search(reader, 'ZANZIBAR cafe')).items;
    expect(item.snippet).toBe(
      'When a &lt; b &amp;&amp; c &gt; d, the &quot;<mark>Zanzibar</mark>&quot; protocol&#39;s <mark>café</mark> rule applies; <mark>zanzibar</mark> again.',
    );
    // Only our own tags survive: no other markup can appear in a snippet.
    expect(item.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  it('gives every result the snippet of its own page', async () => {
    for (let i = 0; i < 4; i++) {
      await createPage(admin, {
        slug: `own/p${i}`,
        title: `Own ${i}`,
        content: `Marker${i} text with sharedword inside page ${i}.`,
      });
    }
    const body = await search(reader, 'sharedword');
    expect(body.items).toHaveLength(4);
    for (const item of body.items) {
      const n = item.slug.slice(-1);
      expect(item.snippet).toBe(`Marker${n} text with <mark>sharedword</mark> inside page ${n}.`);
    }
  });

  it('matches whole words, and the last word as a prefix (a trailing * changes nothing)', async () => {
    await createPage(admin, {
      slug: 'ops/observability',
      title: 'Observability',
      content: 'Dashboards and alerts.',
    });
    expect(await slugsFor(reader, 'observ*')).toEqual(['ops/observability']);
    expect(await slugsFor(reader, 'observ')).toEqual(['ops/observability']);
    expect(await slugsFor(reader, 'observ* dashboards')).toEqual([]);
    expect(await slugsFor(reader, 'dashboards observ*')).toEqual(['ops/observability']);
    const [item] = (await search(reader, 'dashb*')).items;
    expect(item.snippet).toBe('<mark>Dashboards</mark> and alerts.');
  });

  it('finds pages by their tags', async () => {
    await fillerPages(admin, 3);
    await createPage(admin, {
      slug: 'hr/leave',
      title: 'Leave policy',
      content: 'Ask your manager.',
      tags: ['benefits', 'people'],
    });
    const body = await search(reader, 'benefits');
    expect(body.items.map((i) => [i.slug, i.tags])).toEqual([['hr/leave', ['benefits', 'people']]]);
  });

  it('pages through ranked results with limit and cursor', async () => {
    for (let i = 0; i < 5; i++) {
      await createPage(admin, {
        slug: `paging/p${i}`,
        title: `Page ${i}`,
        content: `pagingword ${'pagingword '.repeat(i)}`,
      });
    }
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const body = await search(
        reader,
        'pagingword',
        `&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(body.items.length).toBe(pages < 2 ? 2 : 1);
      seen.push(...body.items.map((i) => i.slug));
      cursor = body.nextCursor;
      pages++;
    }
    expect(pages).toBe(3);
    expect([...seen].sort()).toEqual([
      'paging/p0',
      'paging/p1',
      'paging/p2',
      'paging/p3',
      'paging/p4',
    ]);
  });

  it('treats any text as words: operators, quotes, SQL and odd unicode never fail', async () => {
    await fillerPages(admin, 3);
    await createPage(admin, {
      slug: 'sec/zanzibar',
      title: 'Zanzibar protocol',
      content: 'Select the table near the door, not the window.',
    });
    const nasty = [
      '"',
      '""',
      "'",
      '%',
      '%%',
      '_',
      '*',
      '-',
      '+',
      '(',
      ')',
      '()',
      ':',
      '^',
      '~',
      '@',
      '<',
      '>',
      '\\',
      '{title}:',
      'NEAR',
      'NEAR(a b)',
      'AND',
      'OR',
      'NOT',
      'a AND',
      'OR b',
      'NOT zanzibar',
      '"unterminated',
      "' OR 1=1 --",
      '"; DROP TABLE pages; --',
      "') UNION SELECT password_hash FROM users --",
      "MATCH(title) AGAINST('x' IN BOOLEAN MODE)",
      '@@version',
      '<script>alert(1)</script>',
      '\u0000',
      '\u0301',
      '😀',
      '東京',
      'مرحبا',
      'x'.repeat(256),
      'a'.repeat(200) + '*',
      '* * *',
      '-zanzibar',
    ];
    for (const q of nasty) {
      const res = await reader.get(`/api/search?q=${encodeURIComponent(q)}`);
      expect({ q, status: res.status }).toEqual({ q, status: 200 });
      expect(Array.isArray(res.body.items)).toBe(true);
    }
    // Unknown operators are plain words: every word must occur, the rest of the text is ignored.
    // The query language's own (`OR`, `-word`, quotes) work as docs/search.md says.
    for (const q of [
      '"zanzibar',
      'zanzibar*',
      'zanzibar OR missingword',
      '(zanzibar)',
      'protocol:zanzibar',
      'zanzibar NEAR table',
      'zanzibar NOT door',
      "zanzibar'; --",
    ]) {
      expect({ q, slugs: await slugsFor(reader, q) }).toEqual({ q, slugs: ['sec/zanzibar'] });
    }
    for (const q of [
      '-zanzibar',
      'zanzibar -zanzibar',
      'NOT zanzibar nothing',
      'zanzibar AND nowhere',
      'title:zanzibar',
    ]) {
      expect({ q, slugs: await slugsFor(reader, q) }).toEqual({ q, slugs: [] });
    }
    // The tables are intact.
    expect(await slugsFor(reader, 'zanzibar')).toEqual(['sec/zanzibar']);
  });

  it('never shows a page the caller may not see, nor binned pages', async () => {
    await createGroup(t, 'finance');
    const member = await signedIn(t, 'reader', { groups: ['finance'] });
    await fillerPages(admin, 3);
    await createPage(admin, {
      slug: 'fin/budget',
      title: 'Quasarbudget plan',
      content: 'Numbers.',
      groups: ['finance'],
    });
    await createPage(admin, {
      slug: 'pub/budget',
      title: 'Public quasarbudget',
      content: 'Open numbers.',
    });
    await createPage(admin, {
      slug: 'old/budget',
      title: 'Old quasarbudget',
      content: 'Old numbers.',
    });
    await admin.delete('/api/pages/old/budget').expect(204);

    expect(await slugsFor(reader, 'quasarbudget')).toEqual(['pub/budget']);
    expect((await slugsFor(member, 'quasarbudget')).sort()).toEqual(['fin/budget', 'pub/budget']);
    expect((await slugsFor(admin, 'quasarbudget')).sort()).toEqual(['fin/budget', 'pub/budget']);
    // Paging does not leak either: the hidden page is skipped, not counted.
    const first = await search(reader, 'quasarbudget', '&limit=1');
    expect(first).toEqual({
      items: [expect.objectContaining({ slug: 'pub/budget' })],
      nextCursor: null,
      didYouMean: null,
    });
  });

  it('follows updates, the bin, restore and purge', async () => {
    await fillerPages(admin, 3);
    const created = await createPage(admin, {
      slug: 'ops/moving',
      title: 'Moving target',
      content: 'The alphaword era.',
    });
    expect(await slugsFor(reader, 'alphaword')).toEqual(['ops/moving']);

    await admin
      .put('/api/pages/ops/moving')
      .set('If-Match', `"${created.revision as number}"`)
      .send({ title: 'Renamed gammaword', content: 'The betaword era.', tags: ['deltaword'] })
      .expect(200);
    expect(await slugsFor(reader, 'alphaword')).toEqual([]);
    expect(await slugsFor(reader, 'betaword')).toEqual(['ops/moving']);
    expect(await slugsFor(reader, 'gammaword')).toEqual(['ops/moving']);
    expect(await slugsFor(reader, 'deltaword')).toEqual(['ops/moving']);
    expect((await search(reader, 'betaword')).items[0].title).toBe('Renamed gammaword');

    await admin.delete('/api/pages/ops/moving').expect(204);
    expect(await slugsFor(admin, 'betaword')).toEqual([]);

    const bin = await admin.get('/api/bin').expect(200);
    const binned = (bin.body.items as { id: string; slug: string }[]).find(
      (i) => i.slug === 'ops/moving',
    );
    expect(binned).toBeDefined();
    await admin
      .post(`/api/bin/${binned!.id}/restore`)
      .expect((r) => expect([200, 201]).toContain(r.status));
    expect(await slugsFor(reader, 'betaword')).toEqual(['ops/moving']);

    await admin.delete('/api/pages/ops/moving').expect(204);
    await admin.delete(`/api/bin/${binned!.id}`).expect(204);
    expect(await slugsFor(admin, 'betaword')).toEqual([]);
    const rows: unknown[] = await t.dataSource.query(
      'SELECT page_id FROM page_search WHERE page_id = ?',
      [binned!.id],
    );
    expect(rows).toEqual([]);
  });
});
