import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { fieldErrors } from '../support/problems';
import { fillerPages, search, slugsFor } from '../support/search-support';

/**
 * The query language (docs/search.md): phrases, exclusions, OR, filters as words of `q` and as
 * query parameters, sorting, facets, "Did you mean", synonyms and explain — on both databases.
 */
describe('search query language', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let reader: Client;

  const page = async (body: Record<string, unknown>): Promise<void> => {
    const res = await admin.post('/api/pages').send({ content: '', ...body });
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  };

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    reader = await signedIn(t, 'reader');
    // Other pages, so that a word on two of the four pages still tells them apart (bm25's IDF).
    await fillerPages(admin, 8);
    await page({
      slug: 'runbooks/deploy',
      title: 'Deploy runbook',
      content: 'Start a rolling update of the kubernetes cluster, then watch the canary.',
      tags: ['ops', 'on call'],
      lifecycle: 'published',
      verified: true,
      language: 'en',
      owner: editor.user!.username,
    });
    await page({
      slug: 'runbooks/rollback',
      title: 'Rollback runbook',
      content: 'Update the rolling window and roll the kubernetes deployment back.',
      tags: ['ops'],
      lifecycle: 'deprecated',
      language: 'en-GB',
    });
    await page({
      slug: 'guides/blue-green',
      title: 'Blue green releases',
      content:
        'Switch traffic between blue and green kubernetes services. See [missing](guides/nowhere).',
      tags: ['release'],
      language: 'de',
    });
    await page({
      slug: 'guides/canary',
      title: 'Canary releases',
      content: 'A canary takes a little traffic first.',
      tags: ['release'],
    });
  });
  afterAll(() => t.close());

  const sorted = async (client: Client, q: string, extra = '') =>
    (await search(client, q, extra)).items.map((i) => i.slug).sort();

  it('matches "exact phrases" in order, excludes -words, and reads OR', async () => {
    expect(await slugsFor(reader, '"rolling update"')).toEqual(['runbooks/deploy']);
    expect(await sorted(reader, 'rolling update')).toEqual([
      'runbooks/deploy',
      'runbooks/rollback',
    ]);
    expect(await sorted(reader, 'kubernetes -canary')).toEqual([
      'guides/blue-green',
      'runbooks/rollback',
    ]);
    expect(await sorted(reader, 'kubernetes -"rolling update"')).toEqual([
      'guides/blue-green',
      'runbooks/rollback',
    ]);
    expect(await sorted(reader, 'blue OR rollback')).toEqual([
      'guides/blue-green',
      'runbooks/rollback',
    ]);
    expect(await sorted(reader, 'releases canary OR green')).toEqual([
      'guides/blue-green',
      'guides/canary',
    ]);
  });

  it('filters by tag, owner, folder, lifecycle, verified, language and date', async () => {
    expect(await sorted(reader, 'kubernetes tag:ops')).toEqual([
      'runbooks/deploy',
      'runbooks/rollback',
    ]);
    expect(await sorted(reader, 'tag:"on call"')).toEqual(['runbooks/deploy']);
    expect(await sorted(reader, `owner:${editor.user!.username}`)).toEqual(['runbooks/deploy']);
    expect(await sorted(reader, 'kubernetes under:guides')).toEqual(['guides/blue-green']);
    expect(await sorted(reader, 'under:runbooks/deploy')).toEqual(['runbooks/deploy']);
    expect(await sorted(reader, 'runbook lifecycle:deprecated')).toEqual(['runbooks/rollback']);
    expect(await sorted(reader, 'verified:true')).toEqual(['runbooks/deploy']);
    expect(await sorted(reader, 'lang:en')).toEqual(['runbooks/deploy', 'runbooks/rollback']);
    expect(await sorted(reader, 'lang:de kubernetes')).toEqual(['guides/blue-green']);
    const today = new Date().toISOString().slice(0, 10);
    expect(await sorted(reader, `releases updated:>=${today}`)).toEqual([
      'guides/blue-green',
      'guides/canary',
    ]);
    expect(await sorted(reader, 'releases updated:<2000-01-01')).toEqual([]);
    // The same filters as query parameters, with or without q.
    expect(await sorted(reader, 'kubernetes', '&tag=ops&lifecycle=published')).toEqual([
      'runbooks/deploy',
    ]);
    const noQ = await reader.get('/api/search?under=guides&tag=release').expect(200);
    expect(noQ.body.items.map((i: { slug: string }) => i.slug).sort()).toEqual([
      'guides/blue-green',
      'guides/canary',
    ]);
  });

  it('refuses bad filter values with a field problem and never errors otherwise', async () => {
    await reader
      .get(`/api/search?q=${encodeURIComponent('x lifecycle:gone')}`)
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'q', code: 'invalid_filter' })));
    await reader
      .get('/api/search?q=x&updatedAfter=yesterday')
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(fieldErrors({ field: 'updatedAfter', code: 'invalid_filter' })),
      );
    await reader
      .get('/api/search?q=x&facets=owners')
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'facets', code: 'invalid' })));
    await reader
      .get(`/api/search?q=${encodeURIComponent('tag:"')}`)
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'q', code: 'invalid_filter' })));
    for (const q of ['"', '-', 'OR', '- - OR "" -""', 'a OR OR b', 'under:/', '-"x', 'tag:x:y']) {
      const res = await reader.get(`/api/search?q=${encodeURIComponent(q)}`);
      expect({ q, status: res.status }).toEqual({ q, status: 200 });
    }
  });

  it('finds pages with missing links for editors only, without revealing hidden pages', async () => {
    expect(await sorted(editor, 'is:missing-links')).toEqual(['guides/blue-green']);
    await reader
      .get(`/api/search?q=${encodeURIComponent('is:missing-links')}`)
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'q', code: 'not_allowed' })));
  });

  it('sorts by update time when asked and counts facets', async () => {
    const byDate = await search(reader, 'kubernetes', '&sort=updated');
    expect(byDate.items.map((i) => i.slug)).toEqual([
      'guides/blue-green',
      'runbooks/rollback',
      'runbooks/deploy',
    ]);
    const faceted = await reader.get('/api/search?q=kubernetes&facets=tags,folders').expect(200);
    expect(faceted.body.facets).toEqual({
      tags: [
        { name: 'ops', count: 2 },
        { name: 'on call', count: 1 },
        { name: 'release', count: 1 },
      ],
      folders: [
        { name: 'runbooks', count: 2 },
        { name: 'guides', count: 1 },
      ],
    });
    expect((await search(reader, 'kubernetes')).items).toHaveLength(3);
    expect(await reader.get('/api/search?q=kubernetes').then((r) => r.body.facets)).toBeUndefined();
  });

  it('suggests a spelling when few pages match, and keeps the rest of the query', async () => {
    const body = (await search(reader, 'rollbak tag:ops')) as { didYouMean?: string | null };
    expect(body.didYouMean).toBe('rollback tag:ops');
    const found = (await search(reader, 'rollback')) as { didYouMean?: string | null };
    expect(found.didYouMean).toBeNull();
    const nonsense = (await search(reader, 'qqqqzzzz')) as { didYouMean?: string | null };
    expect(nonsense.didYouMean).toBeNull();
  });

  it('applies synonyms administrators keep', async () => {
    expect(await slugsFor(reader, 'k8s')).toEqual([]);
    await reader
      .put('/api/search/synonyms')
      .send([['k8s', 'kubernetes']])
      .expect(403);
    await admin
      .put('/api/search/synonyms')
      .send([
        ['k8s', 'kubernetes'],
        ['db', 'database', 'data store'],
      ])
      .expect(200)
      .expect((r) =>
        expect(r.body).toEqual([
          ['k8s', 'kubernetes'],
          ['db', 'database', 'data store'],
        ]),
      );
    expect(await admin.get('/api/search/synonyms').then((r) => r.body)).toEqual([
      ['k8s', 'kubernetes'],
      ['db', 'database', 'data store'],
    ]);
    expect(await sorted(reader, 'k8s')).toEqual([
      'guides/blue-green',
      'runbooks/deploy',
      'runbooks/rollback',
    ]);
    for (const bad of [
      {},
      [['alone']],
      [
        ['a', 'b'],
        ['b', 'c'],
      ],
      [['x', 5]],
      [['', 'y']],
    ]) {
      await admin.put('/api/search/synonyms').send(bad).expect(422);
    }
    // A refused body changed nothing.
    expect(await admin.get('/api/search/synonyms').then((r) => r.body)).toHaveLength(2);
    await admin.put('/api/search/synonyms').send([]).expect(200);
    expect(await slugsFor(reader, 'k8s')).toEqual([]);
  });

  it('explains scores to administrators: title hits weigh more, boosts and penalties show', async () => {
    await reader.get('/api/search/explain?q=runbook').expect(403);
    const res = await admin.get('/api/search/explain?q=runbook').expect(200);
    const items = res.body.items as { slug: string; score: Record<string, number> }[];
    expect(items.map((i) => i.slug)).toEqual(['runbooks/deploy', 'runbooks/rollback']);
    const [deploy, rollback] = items;
    expect(deploy.score.title).toBeGreaterThan(0);
    expect(deploy.score.boost).toBeCloseTo(1.2, 5); // verified
    expect(rollback.score.boost).toBeCloseTo(0.5, 5); // deprecated
    expect(deploy.score.score).toBeGreaterThan(rollback.score.score);
  });
});
