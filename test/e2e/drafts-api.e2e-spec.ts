import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, signedIn } from '../support/users';
import { fieldErrors, problem, PROBLEM_CONTENT_TYPE } from '../support/problems';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('drafts API', () => {
  let t: TestApp;
  let editor: Client;
  let admin: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    [editor, admin, reader] = await Promise.all([
      signedIn(t, 'editor'),
      signedIn(t, 'admin'),
      signedIn(t, 'reader'),
    ]);
  });

  async function rows(): Promise<
    { user_id: string; draft_key: string; title: string | null; size: number }[]
  > {
    return t.dataSource.query(
      'SELECT user_id, draft_key, title, size FROM drafts ORDER BY draft_key, user_id',
    );
  }

  it('refuses anonymous callers (401) and readers (403) on every route', async () => {
    const anon = anonymous(t);
    for (const res of [
      await anon.get('/api/drafts'),
      await anon.get('/api/drafts/a'),
      await anon.put('/api/drafts/a').send({ content: 'x' }),
      await anon.delete('/api/drafts/a'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(problem(401, 'unauthenticated'));
    }
    for (const res of [
      await reader.get('/api/drafts'),
      await reader.get('/api/drafts/a'),
      await reader.put('/api/drafts/a').send({ content: 'x' }),
      await reader.delete('/api/drafts/a'),
    ]) {
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
      expect(res.body).toEqual(problem(403, 'insufficient_role'));
    }
    expect(await rows()).toEqual([]);
  });

  it('creates (201 + Location), replaces (200), reads and deletes a draft with any extra members', async () => {
    const key = 'pages/Handbook/intro:v2_draft-1.md';
    const created = await editor
      .put(`/api/drafts/${key}`)
      .send({ content: '# Intro\n\nHello', title: 'Intro', tags: ['a'], baseRevision: 3 })
      .expect(201);
    expect(created.headers.location).toBe(`/api/drafts/${key}`);
    expect(created.body).toEqual({
      key,
      title: 'Intro',
      content: '# Intro\n\nHello',
      tags: ['a'],
      baseRevision: 3,
      size: Buffer.byteLength(
        JSON.stringify({
          content: '# Intro\n\nHello',
          title: 'Intro',
          tags: ['a'],
          baseRevision: 3,
        }),
      ),
      createdAt: ISO,
      updatedAt: ISO,
    });

    const read = await editor.get(`/api/drafts/${key}`).expect(200);
    expect(read.body).toEqual(created.body);

    // A GET answer can be sent back as it is: the server's members are ignored.
    const replaced = await editor
      .put(`/api/drafts/${key}`)
      .send({ ...read.body, content: 'Änderung', title: undefined, tags: undefined })
      .expect(200);
    expect(replaced.headers.location).toBeUndefined();
    expect(replaced.body).toEqual({
      key,
      title: null,
      content: 'Änderung',
      baseRevision: 3,
      size: Buffer.byteLength(JSON.stringify({ content: 'Änderung', baseRevision: 3 })),
      createdAt: created.body.createdAt,
      updatedAt: ISO,
    });
    expect(await editor.get(`/api/drafts/${key}`).expect(200)).toHaveProperty(
      'body',
      replaced.body,
    );
    expect(await rows()).toEqual([
      { user_id: editor.user!.id, draft_key: key, title: null, size: replaced.body.size },
    ]);

    await editor.delete(`/api/drafts/${key}`).expect(204, '');
    expect(await rows()).toEqual([]);
    const gone = await editor.get(`/api/drafts/${key}`).expect(404);
    expect(gone.body).toEqual(problem(404, 'draft_not_found'));
    expect((await editor.delete(`/api/drafts/${key}`).expect(404)).body).toEqual(
      problem(404, 'draft_not_found'),
    );
  });

  it('keeps drafts private: another user sees 404 and the same key is a separate draft per user', async () => {
    await editor.put('/api/drafts/shared-key').send({ content: 'mine' }).expect(201);
    expect((await admin.get('/api/drafts/shared-key').expect(404)).body).toEqual(
      problem(404, 'draft_not_found'),
    );
    expect((await admin.delete('/api/drafts/shared-key').expect(404)).body).toEqual(
      problem(404, 'draft_not_found'),
    );
    await admin.put('/api/drafts/shared-key').send({ content: 'theirs' }).expect(201);
    expect((await editor.get('/api/drafts/shared-key').expect(200)).body.content).toBe('mine');
    expect((await admin.get('/api/drafts/shared-key').expect(200)).body.content).toBe('theirs');
    await admin.delete('/api/drafts/shared-key').expect(204);
    expect((await editor.get('/api/drafts/shared-key').expect(200)).body.content).toBe('mine');
  });

  it('accepts bearer tokens like every /api route', async () => {
    const bearer = await editor.withToken();
    await bearer.put('/api/drafts/from-ci').send({ content: 'x' }).expect(201);
    expect((await editor.get('/api/drafts/from-ci').expect(200)).body.content).toBe('x');
  });

  it('treats keys as case-sensitive on every database', async () => {
    await editor.put('/api/drafts/Note').send({ content: 'upper' }).expect(201);
    await editor.put('/api/drafts/note').send({ content: 'lower' }).expect(201);
    expect((await editor.get('/api/drafts/Note').expect(200)).body.content).toBe('upper');
    expect((await editor.get('/api/drafts/note').expect(200)).body.content).toBe('lower');
    await editor.get('/api/drafts/NOTE').expect(404);
  });

  it('refuses bad keys with a field problem on key (422)', async () => {
    const long = 'k'.repeat(300);
    await editor.put(`/api/drafts/${long}`).send({ content: 'x' }).expect(201);
    for (const bad of [
      'has%20space',
      'tilde~',
      'k'.repeat(301),
      'semi%3Bcolon',
      'emoji%F0%9F%98%80',
    ]) {
      for (const res of [
        await editor.get(`/api/drafts/${bad}`),
        await editor.put(`/api/drafts/${bad}`).send({ content: 'x' }),
        await editor.delete(`/api/drafts/${bad}`),
      ]) {
        expect(res.status).toBe(422);
        expect(res.body).toEqual(
          problem(422, 'validation_failed', {
            errors: [{ field: 'key', code: 'invalid_key', message: expect.any(String) }],
          }),
        );
      }
    }
    expect((await rows()).map((r) => r.draft_key)).toEqual([long]);
  });

  it('refuses malformed bodies with 400 and bad members with 422 field problems', async () => {
    const bad = await editor
      .put('/api/drafts/a')
      .set('Content-Type', 'application/json')
      .send('{"content": ');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(problem(400, 'invalid_json'));
    // Strict JSON parsing refuses top-level primitives; an array parses but is not an object.
    for (const [body, code] of [
      ['[]', 'invalid_body'],
      ['"text"', 'invalid_json'],
      ['42', 'invalid_json'],
      ['null', 'invalid_json'],
    ]) {
      const res = await editor
        .put('/api/drafts/a')
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(problem(400, code));
    }
    const text = await editor
      .put('/api/drafts/a')
      .set('Content-Type', 'text/plain')
      .send('content');
    expect(text.status).toBe(415);
    expect(text.body).toEqual(problem(415, 'unsupported_media_type'));

    expect((await editor.put('/api/drafts/a').send({ title: 'x' }).expect(422)).body).toEqual(
      problem(422, 'validation_failed', {
        errors: [{ field: 'content', code: 'is_string', message: 'content must be a string.' }],
      }),
    );
    expect(
      (
        await editor
          .put('/api/drafts/bad~key')
          .send({ content: 'x', title: 'x'.repeat(501) })
          .expect(422)
      ).body,
    ).toEqual(
      problem(422, 'validation_failed', {
        errors: [
          { field: 'key', code: 'invalid_key', message: expect.any(String) },
          { field: 'title', code: 'max_length', message: 'title must be at most 500 characters.' },
        ],
      }),
    );
    // A member of the wrong JSON type is malformed: 400 naming only the type violations.
    expect(
      (
        await editor
          .put('/api/drafts/bad~key')
          .send({ content: 3, title: 'x'.repeat(501) })
          .expect(400)
      ).body,
    ).toEqual(
      problem(400, 'invalid_type', {
        errors: [{ field: 'content', code: 'is_string', message: 'content must be a string.' }],
      }),
    );
    expect(
      (await editor.put('/api/drafts/a').send({ content: '', title: 7 }).expect(400)).body,
    ).toEqual(
      problem(400, 'invalid_type', {
        errors: [{ field: 'title', code: 'is_string', message: 'title must be a string.' }],
      }),
    );
    expect(await rows()).toEqual([]);
  });

  it('keeps drafts of every page a person may edit, whatever its script (page:<slug>)', async () => {
    const slug = 'team/über-uns/日本語/ελληνικά';
    const path = `/api/drafts/${encodeURI(`page:${slug}`)}`;
    const created = await editor
      .put(path)
      .send({ content: 'Hallo', title: 'Über uns' })
      .expect(201);
    expect(created.headers.location).toBe(path);
    expect(created.body).toMatchObject({ key: `page:${slug}`, content: 'Hallo' });
    // The same key typed decomposed (u + combining diaeresis) is the same draft (NFC).
    const decomposed = `/api/drafts/${encodeURI(`page:${slug.normalize('NFD')}`)}`;
    expect((await editor.get(decomposed).expect(200)).body.content).toBe('Hallo');
    await editor.put(decomposed).send({ content: 'Hallo Welt', title: 'Über uns' }).expect(200);
    expect((await editor.get(path).expect(200)).body.content).toBe('Hallo Welt');
    expect((await editor.get('/api/drafts').expect(200)).body.items).toEqual([
      expect.objectContaining({ key: `page:${slug}`, title: 'Über uns' }),
    ]);
    // Case still matters, as for ASCII keys.
    await editor.get(`/api/drafts/${encodeURI('page:team/Über-uns/日本語/ελληνικά')}`).expect(404);
    // The longest slug the page API accepts fits, behind `page:`.
    const longest = Array.from({ length: 17 }, () => 'ü'.repeat(14)).join('/');
    expect([...longest].length).toBeLessThanOrEqual(255);
    await editor
      .put(`/api/drafts/${encodeURI(`page:${longest}`)}`)
      .send({ content: 'x' })
      .expect(201);
    await editor.delete(path).expect(204);
    expect((await rows()).map((r) => r.draft_key)).toEqual([`page:${longest}`]);
  });

  it('keeps a draft as large as the largest page plus its base (DRAFT_MAX_BYTES, 413 in words)', async () => {
    const pageMax = t.config.pages.maxBytes;
    const max = t.config.pages.draftMaxBytes;
    expect(max).toBeGreaterThanOrEqual(2 * pageMax);
    const page = 'x'.repeat(pageMax);
    await editor.put('/api/drafts/big').send({ content: page, base: page }).expect(201);
    // The text may be as long as a page: one byte more is the page's own 413, in words.
    const overPage = await editor
      .put('/api/drafts/big')
      .send({ content: 'x'.repeat(Math.round(3.1 * 1024 * 1024)) })
      .expect(413);
    expect(overPage.body).toEqual(
      problem(413, 'page_too_large', {
        limit: pageMax,
        detail: 'This page holds 3.1 MiB; a page may hold at most 2 MiB.',
      }),
    );
    const justOver = await editor
      .put('/api/drafts/big')
      .send({ content: 'é'.repeat(pageMax / 2) + 'x' })
      .expect(413);
    expect(justOver.body.detail).toBe(
      'This page holds more than 2 MiB; a page may hold at most 2 MiB.',
    );
    // The whole stored document (text, base, the editor's members) within DRAFT_MAX_BYTES.
    const envelope = Buffer.byteLength(JSON.stringify({ content: '', a: '', b: '', c: '' }));
    const rest = max - envelope - 2 * pageMax;
    await editor
      .put('/api/drafts/whole')
      .send({ content: '', a: page, b: page, c: 'y'.repeat(rest) })
      .expect(201);
    const over = await editor
      .put('/api/drafts/whole')
      .send({ content: 'z', a: page, b: page, c: 'y'.repeat(rest) })
      .expect(413);
    expect(over.body).toEqual(
      problem(413, 'draft_too_large', {
        maxBytes: max,
        detail: 'This draft holds more than 4.5 MiB; a draft may hold at most 4.5 MiB.',
      }),
    );
    expect(await rows()).toEqual([
      { user_id: editor.user!.id, draft_key: 'big', title: null, size: expect.any(Number) },
      { user_id: editor.user!.id, draft_key: 'whole', title: null, size: max },
    ]);
    expect((await editor.get('/api/drafts/whole').expect(200)).body.content).toBe('');
  });

  it('refuses more than 1,000 JSON members quickly, as the page routes do (413)', async () => {
    const fields = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`m${i}`, i]));
    await editor.put('/api/drafts/members').send({ content: 'x', fields }).expect(201);
    const many = JSON.stringify({
      content: 'y',
      ...Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`m${i}`, i])),
    });
    const started = Date.now();
    const res = await editor
      .put('/api/drafts/members')
      .set('Content-Type', 'application/json')
      .send(many)
      .expect(413);
    // Reading it whole took ~1 s of the event loop; refused by the byte scan it is a few ms.
    expect(Date.now() - started).toBeLessThan(400);
    expect(res.body).toEqual(problem(413, 'too_many_members', { limit: 1000 }));
    expect((await editor.get('/api/drafts/members').expect(200)).body.content).toBe('x');
  });

  it('lists only the caller’s drafts, newest first, paged', async () => {
    for (const key of ['one', 'two', 'three']) {
      await editor
        .put(`/api/drafts/${key}`)
        .send({ content: key, title: `T ${key}` })
        .expect(201);
      await new Promise((r) => setTimeout(r, 5));
    }
    await admin.put('/api/drafts/other').send({ content: 'x' }).expect(201);
    const first = await editor.get('/api/drafts?limit=2').expect(200);
    expect(first.body).toEqual({
      items: [
        {
          key: 'three',
          title: 'T three',
          size: expect.any(Number),
          createdAt: ISO,
          updatedAt: ISO,
        },
        { key: 'two', title: 'T two', size: expect.any(Number), createdAt: ISO, updatedAt: ISO },
      ],
      nextCursor: expect.any(String),
    });
    const second = await editor
      .get(`/api/drafts?limit=2&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(second.body).toEqual({
      items: [
        { key: 'one', title: 'T one', size: expect.any(Number), createdAt: ISO, updatedAt: ISO },
      ],
      nextCursor: null,
    });
    expect((await editor.get('/api/drafts?limit=0').expect(422)).body).toEqual(
      fieldErrors({ field: 'limit', code: 'out_of_range' }),
    );
    expect((await editor.get('/api/drafts?cursor=nope!').expect(400)).body).toEqual(
      problem(400, 'invalid_cursor'),
    );
  });

  it('lets exactly one of several simultaneous first saves create the draft', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        editor.put('/api/drafts/race').send({ content: `v${i}` }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect((await rows()).length).toBe(1);
  });
});
