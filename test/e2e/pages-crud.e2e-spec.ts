import { anonymous, createGroup, signedIn } from '../support/users';
import { fieldErrors, problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import {
  usePagesApp,
  allItems,
  createPage,
  expectedPage,
  expectedSummary,
  ISO_DATE,
  newPage,
} from '../support/pages';

describe('pages: create, read, update, raw, lists', () => {
  const c = usePagesApp();

  it('creates a page: 201, Location, ETag and the whole body', async () => {
    const res = await c.editor
      .post('/api/pages')
      .send({
        slug: 'Guides/Getting-Started',
        title: '  Getting started ',
        content: '# Hello\n\nSee [intro](../intro#top).',
        tags: ['How-To', 'how-to', 'Setup'],
      })
      .expect(201);
    expect(res.headers.location).toBe('/api/pages/guides/getting-started');
    expect(res.headers.etag).toBe('"1"');
    expect(res.body).toEqual(
      expectedPage({
        slug: 'guides/getting-started',
        title: 'Getting started',
        content: '# Hello\n\nSee [intro](../intro#top).',
        tags: ['how-to', 'setup'],
        // Nobody was named: the creator owns the page.
        owner: c.editor.user!.username,
        updatedBy: c.editor.user!.username,
        html: '<h1 id="hello">Hello</h1>\n<p>See <a href="/intro#top" class="kb-missing">intro</a>.</p>\n',
      }),
    );
  });

  it('stores every metadata field and answers it on read', async () => {
    await createPage(c.admin, 'target');
    await createGroup(c.t, 'ops');
    const owner = await signedIn(c.t, 'editor');
    const body = {
      slug: 'runbooks/Deploy',
      title: 'Deploy',
      content: 'Deploy {{env}} as {{user}}.',
      icon: '🚀',
      language: 'en-GB',
      tags: ['ops'],
      lifecycle: 'deprecated',
      owner: owner.user!.username,
      reviewIntervalDays: 30,
      nextReviewAt: '2030-01-02T03:04:05.000Z',
      groups: ['OPS'],
      deprecatedTarget: 'Target',
      properties: { team: 'platform', priority: 2, critical: true, note: null },
      variables: { env: 'production' },
      verified: true,
    };
    await c.admin.post('/api/pages').send(body).expect(201);
    const res = await c.admin.get('/api/pages/runbooks/deploy').expect(200);
    expect(res.headers.etag).toBe('"1"');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.body).toEqual(
      expectedPage({
        ...body,
        slug: 'runbooks/deploy',
        owner: owner.user!.username,
        groups: ['ops'],
        deprecatedTarget: 'target',
        updatedBy: c.admin.user!.username,
        html: '<p>Deploy production as {{user}}.</p>\n',
      }),
    );
  });

  it('starts the review clock when only an interval is given', async () => {
    const before = Date.now();
    const page = await createPage(c.editor, 'reviewed', { reviewIntervalDays: 10 });
    const due = new Date(page.nextReviewAt).getTime();
    expect(due).toBeGreaterThanOrEqual(before + 10 * 86_400_000 - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 10 * 86_400_000 + 1000);
  });

  it('refuses anonymous callers on every route (401)', async () => {
    const anon = anonymous(c.t);
    const calls = [
      anon.get('/api/pages'),
      anon.post('/api/pages').send(newPage('x')),
      anon.get('/api/pages/x'),
      anon.get('/api/pages/x/raw'),
      anon.put('/api/pages/x').send({ baseRevision: 1 }),
      anon.delete('/api/pages/x'),
      anon.get('/api/recent'),
      anon.get('/api/tags'),
      anon.get('/api/graph'),
      anon.post('/api/preview').send({ content: 'x' }),
      anon.get('/api/variables'),
      anon.put('/api/variables').send({ variables: {} }),
      anon.get('/api/revisions?slug=x'),
      anon.get('/api/revisions/00000000-0000-4000-8000-000000000000'),
      anon.post('/api/revisions/00000000-0000-4000-8000-000000000000/restore').send({}),
      anon.get('/api/bin'),
      anon.post('/api/bin/00000000-0000-4000-8000-000000000000/restore'),
      anon.delete('/api/bin/00000000-0000-4000-8000-000000000000'),
    ];
    for (const call of calls) {
      const res = await call;
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
      expect(res.body).toEqual(problem(401, 'unauthenticated'));
    }
  });

  it('refuses the wrong role (403)', async () => {
    await createPage(c.admin, 'x');
    const forbidden = [
      c.reader.post('/api/pages').send(newPage('y')),
      c.reader.put('/api/pages/x').send({ baseRevision: 1, title: 'no' }),
      c.reader.post('/api/preview').send({ content: 'x' }),
      c.reader.post('/api/revisions/00000000-0000-4000-8000-000000000000/restore').send({}),
      c.editor.delete('/api/pages/x'),
      c.editor.get('/api/bin'),
      c.editor.post('/api/bin/00000000-0000-4000-8000-000000000000/restore'),
      c.editor.delete('/api/bin/00000000-0000-4000-8000-000000000000'),
      c.editor.put('/api/variables').send({ variables: {} }),
      (await c.reader.withToken()).post('/api/pages').send(newPage('z')),
      (await c.admin.withToken({ scope: 'reader' })).post('/api/pages').send(newPage('z')),
    ];
    for (const call of forbidden) {
      const res = await call;
      expect(res.status).toBe(403);
      expect(res.body).toEqual(problem(403, 'insufficient_role'));
    }
    await c.admin
      .get('/api/pages/x')
      .expect(200)
      .expect((r) => expect(r.body.title).toBe('Title of x'));
  });

  it('works with a bearer token as well as the session', async () => {
    const token = await c.editor.withToken();
    await token.post('/api/pages').send(newPage('by-token')).expect(201);
    await token.get('/api/pages/by-token/raw').expect(200);
  });

  it('answers 400 for malformed bodies and headers', async () => {
    await createPage(c.editor, 'x');
    const notJson = await c.editor
      .post('/api/pages')
      .set('Content-Type', 'application/json')
      .send('{"slug": ');
    expect(notJson.status).toBe(400);
    expect(notJson.body.status).toBe(400);
    await c.editor
      .post('/api/pages')
      .send([newPage('y')])
      .expect(400)
      .expect((r) => expect(r.body).toEqual(problem(400, 'invalid_body')));
    await c.editor
      .put('/api/pages/x')
      .set('If-Match', 'yesterday')
      .send({ title: 'a' })
      .expect(400)
      .expect((r) => expect(r.body).toEqual(problem(400, 'invalid_if_match')));
    await c.editor
      .put('/api/pages/x')
      .set('If-Match', '"1"')
      .send({ title: 'a', baseRevision: 2 })
      .expect(400)
      .expect((r) => expect(r.body).toEqual(problem(400, 'conflicting_preconditions')));
    const forged = Buffer.from(JSON.stringify({ u: 'not a date', i: 'x' })).toString('base64url');
    for (const path of [
      `/api/pages?cursor=${forged}`,
      `/api/recent?cursor=${forged}`,
      `/api/bin?cursor=${forged}`,
    ]) {
      const res = await c.admin.get(path).expect(400);
      expect(res.body).toEqual(problem(400, 'invalid_cursor'));
    }
    await c.reader
      .get('/api/pages?cursor=!!!')
      .expect(400)
      .expect((r) => expect(r.body).toEqual(problem(400, 'invalid_cursor')));
  });

  it('reports each slug violation as a field problem (422)', async () => {
    const cases: [string, string[]][] = [
      ['', ['slug_empty']],
      ['a//b', ['slug_empty_segment']],
      ['a/../b', ['slug_dot_segment']],
      ['a b/c?d', ['slug_invalid_characters']],
      ['docs/raw', ['slug_reserved']],
      [
        Array.from({ length: 21 }, () => 'x y').join('/'),
        ['slug_too_many_segments', 'slug_invalid_characters'],
      ],
      ['a'.repeat(256), ['slug_too_long']],
    ];
    for (const [slug, codes] of cases) {
      const res = await c.editor
        .post('/api/pages')
        .send(newPage(slug, { title: 'T' }))
        .expect(422);
      expect(res.body).toEqual(
        problem(422, 'validation_failed', {
          errors: codes.map((code) => ({ field: 'slug', code, message: expect.any(String) })),
        }),
      );
    }
    await c.reader
      .get('/api/pages?limit=0')
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'limit', code: 'out_of_range' })));
  });

  it('reports every bad metadata field at once (422)', async () => {
    await createGroup(c.t, 'secret');
    const res = await c.editor
      .post('/api/pages')
      .send({
        slug: 'ok',
        title: '   ',
        tags: ['fine', '', 'x'.repeat(65)],
        lifecycle: 'gone',
        owner: 'nobody-here',
        reviewIntervalDays: 0,
        nextReviewAt: 'tomorrow',
        groups: ['unknown-group', 'secret'],
        deprecatedTarget: 'missing-page',
        properties: { nested: { a: 1 }, list: [1], fine: 'x' },
        variables: { 'bad name': 'x', num: 5 },
        icon: 'x'.repeat(65),
        language: 'not a language',
        extra: true,
      })
      .expect(422);
    expect(res.body).toEqual(problem(422, 'validation_failed', { errors: expect.any(Array) }));
    const fields = (res.body.errors as { field: string; code: string }[])
      .map((e) => `${e.field}:${e.code}`)
      .sort();
    expect(fields).toEqual(['extra:unknown_field', 'lifecycle:is_in']);

    const res2 = await c.editor
      .post('/api/pages')
      .send({
        slug: 'ok',
        title: '   ',
        tags: ['fine', '', 'x'.repeat(65)],
        owner: 'nobody-here',
        reviewIntervalDays: 0,
        nextReviewAt: 'tomorrow',
        groups: ['unknown-group', 'secret'],
        deprecatedTarget: 'missing-page',
        properties: { nested: { a: 1 }, list: [1], fine: 'x' },
        variables: { 'bad name': 'x', num: 5 },
        icon: 'x'.repeat(65),
        language: 'not a language',
      })
      .expect(422);
    const fields2 = (res2.body.errors as { field: string; code: string }[])
      .map((e) => `${e.field}:${e.code}`)
      .sort();
    expect(fields2).toEqual(
      [
        'title:title_required',
        'tags[1]:invalid_tag',
        'tags[2]:tag_too_long',
        'owner:unknown_user',
        'reviewIntervalDays:out_of_range',
        'nextReviewAt:invalid_date',
        'groups[0]:unknown_group',
        'groups[1]:group_not_assignable',
        'deprecatedTarget:unknown_page',
        'properties.nested:not_a_scalar',
        'properties.list:not_a_scalar',
        'variables.bad name:invalid_variable_name',
        'variables.num:not_a_string',
        'icon:invalid_icon',
        'language:invalid_language',
      ].sort(),
    );
    await c.admin.get('/api/pages/ok').expect(404);
    await c.editor
      .post('/api/pages')
      .send({ slug: 'y', title: 'y', content: 5 })
      .expect(400)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(400, 'invalid_type', {
            errors: [{ field: 'content', code: 'is_string', message: 'content must be a string' }],
          }),
        ),
      );
  });

  it('refuses content over the size limit (413)', async () => {
    const res = await c.editor
      .post('/api/pages')
      .send(newPage('big', { content: 'x'.repeat(2 * 1024 * 1024 + 1) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual(problem(413, 'page_too_large', { limit: 2 * 1024 * 1024 }));
  });

  it('refuses a taken slug (409) but accepts another case of an unrelated slug', async () => {
    await createPage(c.editor, 'Taken');
    await c.editor
      .post('/api/pages')
      .send(newPage('TAKEN'))
      .expect(409)
      .expect((r) => expect(r.body).toEqual(problem(409, 'slug_taken', { slug: 'taken' })));
    await createPage(c.editor, 'café');
    await createPage(c.editor, 'cafe');
    expect((await allItems(c.reader, '/api/pages')).map((p) => p.slug).sort()).toEqual([
      'cafe',
      'café',
      'taken',
    ]);
  });

  it('answers 404 for missing pages on every page route', async () => {
    for (const res of [
      await c.reader.get('/api/pages/nope'),
      await c.reader.get('/api/pages/nope/raw'),
      await c.editor.put('/api/pages/nope').send({ baseRevision: 1, title: 'x' }),
      await c.admin.delete('/api/pages/nope'),
      await c.reader.get('/api/pages/raw'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(problem(404, 'page_not_found'));
    }
  });

  it('serves the Markdown at /raw with the ETag', async () => {
    await createPage(c.editor, 'docs/a', { content: '# A\n\nü {{x}}' });
    const res = await c.reader.get('/api/pages/docs/a/raw').expect(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers.etag).toBe('"1"');
    expect(res.text).toBe('# A\n\nü {{x}}');
    await c.reader.get('/api/pages/docs/a/raw').set('If-None-Match', '"1"').expect(304);
    await c.reader.get('/api/pages/docs/a/raw').set('If-None-Match', 'W/"0", W/"1"').expect(304);
    await c.reader.get('/api/pages/docs/a/raw').set('If-None-Match', '"2"').expect(200);
  });

  it('reads non-ASCII slugs through percent-encoded URLs and answers an encoded Location', async () => {
    const res = await c.editor.post('/api/pages').send(newPage('Wiki/Café-Ü')).expect(201);
    expect(res.headers.location).toBe('/api/pages/wiki/caf%C3%A9-%C3%BC');
    const read = await c.reader.get(res.headers.location).expect(200);
    expect(read.body.slug).toBe('wiki/café-ü');
    await c.reader.get('/api/pages/WIKI/CAF%C3%89-%C3%9C/raw').expect(200);
  });

  it('answers 304 to If-None-Match with the current revision only', async () => {
    await createPage(c.editor, 'cached');
    const res = await c.reader.get('/api/pages/cached').set('If-None-Match', '"1"').expect(304);
    expect(res.headers.etag).toBe('"1"');
    expect(res.text).toBe('');
    await c.reader.get('/api/pages/cached').set('If-None-Match', 'W/"1", "7"').expect(304);
    await c.reader.get('/api/pages/cached').set('If-None-Match', '"2"').expect(200);
  });

  it('updates with If-Match or baseRevision; partial fields keep their values', async () => {
    await createPage(c.editor, 'doc', { tags: ['a'], icon: 'x' });
    const first = await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '"1"')
      .send({ content: 'v2' })
      .expect(200);
    expect(first.headers.etag).toBe('"2"');
    expect(first.body).toEqual(
      expectedPage({
        slug: 'doc',
        title: 'Title of doc',
        content: 'v2',
        tags: ['a'],
        icon: 'x',
        owner: c.editor.user!.username,
        revision: 2,
        html: '<p>v2</p>\n',
        updatedBy: c.editor.user!.username,
      }),
    );
    const second = await c.admin
      .put('/api/pages/doc')
      .send({ baseRevision: 2, title: 'New', tags: [], icon: null })
      .expect(200);
    expect(second.body).toEqual(
      expectedPage({
        slug: 'doc',
        title: 'New',
        content: 'v2',
        revision: 3,
        html: '<p>v2</p>\n',
        owner: c.editor.user!.username,
        updatedBy: c.admin.user!.username,
      }),
    );
    // No change: no new revision.
    const same = await c.admin
      .put('/api/pages/doc')
      .send({ baseRevision: 3, title: 'New' })
      .expect(200);
    expect(same.body.revision).toBe(3);
  });

  it('needs a precondition (428) and refuses stale ones (412 / 409) without changing anything', async () => {
    await createPage(c.editor, 'doc');
    await c.editor.put('/api/pages/doc').send({ baseRevision: 1, content: 'second' }).expect(200);
    await c.editor
      .put('/api/pages/doc')
      .send({ content: 'lost' })
      .expect(428)
      .expect((r) => expect(r.body).toEqual(problem(428, 'precondition_required')));
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '"1"')
      .send({ content: 'lost' })
      .expect(412)
      .expect((r) =>
        expect(r.body).toEqual(problem(412, 'revision_mismatch', { currentRevision: 2 })),
      );
    await c.editor
      .put('/api/pages/doc')
      .send({ baseRevision: 1, content: 'lost' })
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(problem(409, 'revision_conflict', { currentRevision: 2 })),
      );
    const now = await c.reader.get('/api/pages/doc').expect(200);
    expect(now.body.content).toBe('second');
    expect(now.body.revision).toBe(2);
  });

  it('moves a page to a new slug (409 when taken), freeing the old one', async () => {
    await createPage(c.editor, 'old');
    await createPage(c.editor, 'other');
    await c.editor
      .put('/api/pages/old')
      .send({ baseRevision: 1, slug: 'other' })
      .expect(409)
      .expect((r) => expect(r.body).toEqual(problem(409, 'slug_taken', { slug: 'other' })));
    await c.editor
      .put('/api/pages/old')
      .send({ baseRevision: 1, slug: 'new/raw' })
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'slug', code: 'slug_reserved' })));
    const moved = await c.editor
      .put('/api/pages/old')
      .send({ baseRevision: 1, slug: 'New/Place' })
      .expect(200);
    expect(moved.body.slug).toBe('new/place');
    await c.reader.get('/api/pages/old').expect(404);
    await createPage(c.editor, 'old');
  });

  it('lists pages most recent first with limit and cursor; /api/recent agrees', async () => {
    for (const slug of ['p1', 'p2', 'p3', 'p4', 'p5'])
      await createPage(c.editor, slug, { tags: slug === 'p2' ? ['x'] : [] });
    await c.editor.put('/api/pages/p2').send({ baseRevision: 1, content: 'touched' }).expect(200);
    const first = await c.reader.get('/api/pages?limit=2').expect(200);
    expect(first.body).toEqual({
      items: [
        expectedSummary({
          slug: 'p2',
          title: 'Title of p2',
          tags: ['x'],
          revision: 2,
          owner: c.editor.user!.username,
          updatedBy: c.editor.user!.username,
        }),
        expectedSummary({
          slug: 'p5',
          title: 'Title of p5',
          owner: c.editor.user!.username,
          updatedBy: c.editor.user!.username,
        }),
      ],
      nextCursor: expect.any(String),
    });
    const second = await c.reader
      .get(`/api/pages?limit=2&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(second.body.items.map((p: { slug: string }) => p.slug)).toEqual(['p4', 'p3']);
    const third = await c.reader
      .get(`/api/pages?limit=2&cursor=${second.body.nextCursor}`)
      .expect(200);
    expect(third.body).toEqual({
      items: [expect.objectContaining({ slug: 'p1' })],
      nextCursor: null,
    });
    expect((await allItems(c.reader, '/api/recent', 3)).map((p) => p.slug)).toEqual([
      'p2',
      'p5',
      'p4',
      'p3',
      'p1',
    ]);
    expect((await allItems(c.reader, '/api/pages?tag=X')).map((p) => p.slug)).toEqual(['p2']);
    expect(first.body.items[0].updatedAt).toEqual(ISO_DATE);
  });
});
