import { problem, PROBLEM_CONTENT_TYPE, validationProblem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createUser, signedIn } from '../support/users';

/**
 * The error-status rule for request bodies (DESIGN B "Errors", docs/auth.md): a member of the
 * wrong JSON type is malformed syntax (400 invalid_type); a well-typed but unacceptable value
 * is 422; a body in another media type than JSON on a JSON route is 415.
 */
describe('problems: wrong JSON types (400) and wrong media types (415)', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
  });
  afterAll(() => t.close());

  const typeProblem = (
    instance: string,
    ...errors: { field: string; code: string; message: string }[]
  ) => ({
    type: 'urn:kb:problem:invalid_type',
    title: 'Bad Request',
    status: 400,
    detail: 'Some fields have the wrong JSON type.',
    instance,
    code: 'invalid_type',
    requestId: expect.any(String),
    errors,
  });

  describe('A: wrong JSON types are 400 invalid_type', () => {
    it('POST /api/pages: one problem per wrongly typed member, exact bodies', async () => {
      const cases: [Record<string, unknown>, { field: string; code: string; message: string }][] = [
        [{ title: 123 }, { field: 'title', code: 'is_string', message: 'title must be a string' }],
        [
          { content: ['x'] },
          { field: 'content', code: 'is_string', message: 'content must be a string' },
        ],
        [{ slug: 5 }, { field: 'slug', code: 'is_string', message: 'slug must be a string' }],
        [
          { verified: 'yes' },
          { field: 'verified', code: 'is_boolean', message: 'verified must be a boolean value' },
        ],
        [
          { reviewIntervalDays: '7' },
          {
            field: 'reviewIntervalDays',
            code: 'is_int',
            message: 'reviewIntervalDays must be an integer number',
          },
        ],
        [
          { properties: ['a'] },
          { field: 'properties', code: 'is_object', message: 'properties must be an object' },
        ],
        [
          { variables: 'x=1' },
          { field: 'variables', code: 'is_object', message: 'variables must be an object' },
        ],
        [
          { tags: [1] },
          { field: 'tags', code: 'is_string', message: 'each value in tags must be a string' },
        ],
        [
          { lifecycle: 3 },
          { field: 'lifecycle', code: 'is_string', message: 'lifecycle must be a string' },
        ],
      ];
      for (const [override, error] of cases) {
        const res = await editor
          .post('/api/pages')
          .send({ slug: 'ty/1', title: 'T', content: 'x', ...override });
        expect({ override, status: res.status }).toEqual({ override, status: 400 });
        expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
        expect(res.body).toEqual(typeProblem('/api/pages', error));
      }
      await admin.get('/api/pages/ty/1').expect(404);
    });

    it('lists only the type violations: no size noise, no semantic problems of other fields', async () => {
      const res = await editor
        .post('/api/pages')
        .send({ slug: 'ty/1', title: 123, tags: 'a', lifecycle: 'gone', extra: true })
        .expect(400);
      expect(res.body).toEqual(
        typeProblem(
          '/api/pages',
          { field: 'tags', code: 'is_array', message: 'tags must be an array' },
          { field: 'title', code: 'is_string', message: 'title must be a string' },
        ),
      );
    });

    it('well-typed but unacceptable values, unknown fields and missing members stay 422', async () => {
      expect(
        (
          await editor
            .post('/api/pages')
            .send({ slug: 'ty/1', title: 'T', lifecycle: 'gone', extra: true })
            .expect(422)
        ).body,
      ).toEqual(
        validationProblem(
          { field: 'extra', code: 'unknown_field', message: 'property extra should not exist' },
          {
            field: 'lifecycle',
            code: 'is_in',
            message: expect.stringContaining('lifecycle must be one of the following values'),
          },
        ),
      );
      // A property value that is not a scalar, a variable value that is not a string: rules, 422.
      const rules = await editor
        .post('/api/pages')
        .send({ slug: 'ty/1', title: 'T', properties: { a: [1] }, variables: { v: 5 } })
        .expect(422);
      expect(rules.body).toEqual(
        validationProblem(
          {
            field: 'properties.a',
            code: 'not_a_scalar',
            message: 'A property value must be a string, number, boolean or null.',
          },
          {
            field: 'variables.v',
            code: 'not_a_string',
            message: 'A variable value must be a string.',
          },
        ),
      );
      expect((await editor.post('/api/pages').send({ title: 'T' }).expect(422)).body).toEqual(
        validationProblem({ field: 'slug', code: 'is_string', message: 'slug must be a string' }),
      );
    });

    it('PUT /api/pages baseRevision, PATCH /api/users, /api/tokens, /auth/login, drafts, variables, preview', async () => {
      await editor.post('/api/pages').send({ slug: 'ty/1', title: 'T', content: 'x' }).expect(201);
      expect(
        (await editor.put('/api/pages/ty/1').send({ baseRevision: 'abc' }).expect(400)).body,
      ).toEqual(
        typeProblem('/api/pages/ty/1', {
          field: 'baseRevision',
          code: 'is_int',
          message: 'baseRevision must be an integer number',
        }),
      );
      const user = await createUser(t, 'reader');
      expect(
        (
          await admin
            .patch(`/api/users/${user.id}`)
            .send({ disabled: 'yes', password: 'short' })
            .expect(400)
        ).body,
      ).toEqual(
        typeProblem(`/api/users/${user.id}`, {
          field: 'disabled',
          code: 'is_boolean',
          message: 'disabled must be a boolean value',
        }),
      );
      expect(
        (await editor.post('/api/tokens').send({ name: 5, scope: 1 }).expect(400)).body,
      ).toEqual(
        typeProblem(
          '/api/tokens',
          { field: 'name', code: 'is_string', message: 'name must be a string' },
          { field: 'scope', code: 'is_string', message: 'scope must be a string' },
        ),
      );
      expect(
        (await anonymous(t).post('/auth/login').send({ username: 'x', password: 5 }).expect(400))
          .body,
      ).toEqual(
        typeProblem('/auth/login', {
          field: 'password',
          code: 'is_string',
          message: 'password must be a string',
        }),
      );
      expect(
        (await editor.put('/api/drafts/a').send({ content: 3, title: 4 }).expect(400)).body,
      ).toEqual(
        typeProblem(
          '/api/drafts/a',
          { field: 'content', code: 'is_string', message: 'content must be a string.' },
          { field: 'title', code: 'is_string', message: 'title must be a string.' },
        ),
      );
      expect(
        (
          await admin
            .put('/api/variables')
            .send({ variables: ['a'] })
            .expect(400)
        ).body,
      ).toEqual(
        typeProblem('/api/variables', {
          field: 'variables',
          code: 'is_object',
          message: 'variables must be an object',
        }),
      );
      expect((await editor.post('/api/preview').send({ content: 1 }).expect(400)).body).toEqual(
        typeProblem('/api/preview', {
          field: 'content',
          code: 'is_string',
          message: 'content must be a string',
        }),
      );
    });
  });

  describe('B: a body in another media type on a JSON route is 415', () => {
    const unsupported = (instance: string, type?: string) => ({
      type: 'urn:kb:problem:unsupported_media_type',
      title: 'Unsupported Media Type',
      status: 415,
      detail: type
        ? `This route reads a JSON body (Content-Type: application/json), not ${type}.`
        : 'This route reads a JSON body: send it with Content-Type: application/json.',
      instance,
      code: 'unsupported_media_type',
      requestId: expect.any(String),
    });
    const body = '{"slug":"ty/1","title":"T"}';

    it('POST /api/pages: text/plain, XML, a form, no Content-Type at all', async () => {
      for (const type of [
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'text/plain; charset=utf-8',
      ]) {
        const res = await editor.post('/api/pages').set('Content-Type', type).send(body);
        expect({ type, status: res.status }).toEqual({ type, status: 415 });
        expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
        expect(res.headers['accept']).toBe('application/json');
        expect(res.body).toEqual(unsupported('/api/pages', type.split(';')[0]));
      }
      // A Buffer goes out without a Content-Type header.
      const bare = await editor.post('/api/pages').send(Buffer.from(body));
      expect(bare.status).toBe(415);
      expect(bare.body).toEqual(unsupported('/api/pages'));
      await admin.get('/api/pages/ty/1').expect(404);
    });

    it('every JSON route, including those reading the body themselves (export)', async () => {
      await editor.post('/api/pages').send({ slug: 'ty/1', title: 'T', content: 'x' }).expect(201);
      const user = await createUser(t, 'reader');
      const cases: [Client, 'post' | 'put' | 'patch', string][] = [
        [editor, 'post', '/api/tokens'],
        [anonymous(t), 'post', '/auth/login'],
        [admin, 'put', '/api/variables'],
        [admin, 'post', '/api/groups'],
        [admin, 'post', '/api/users'],
        [admin, 'patch', `/api/users/${user.id}`],
        [editor, 'put', '/api/pages/ty/1'],
        [editor, 'post', '/api/preview'],
        [editor, 'put', '/api/drafts/a'],
        [editor, 'post', '/export/preview/ty/1'],
        [editor, 'post', '/export/pdf/ty/1'],
        [admin, 'post', '/api/export/archive'],
      ];
      for (const [client, method, path] of cases) {
        const res = await client[method](path).set('Content-Type', 'text/plain').send('x=1');
        expect({ path, status: res.status }).toEqual({ path, status: 415 });
        expect(res.body).toEqual(unsupported(path, 'text/plain'));
      }
    });

    it('401 and 403 come first; no body at all stays 400 invalid_body', async () => {
      const anon = await anonymous(t)
        .post('/api/pages')
        .set('Content-Type', 'text/plain')
        .send('x');
      expect(anon.status).toBe(401);
      const reader = await signedIn(t, 'reader');
      const forbidden = await reader.post('/api/users').set('Content-Type', 'text/plain').send('x');
      expect(forbidden.status).toBe(403);
      for (const res of [
        await editor.post('/api/pages'),
        await editor.post('/api/pages').set('Content-Type', 'text/plain'),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(problem(400, 'invalid_body'));
      }
    });

    it('accepts application/*+json; leaves multipart routes and body-less routes alone', async () => {
      await admin
        .post('/api/groups')
        .set('Content-Type', 'application/vnd.kb+json')
        .send('{"name":"ops"}')
        .expect(201);
      const image = await editor.post('/api/images').set('Content-Type', 'text/plain').send('x');
      expect(image.status).toBe(415);
      expect(image.body.code).toBe('multipart_required');
      // A route without a body ignores whatever is sent.
      await editor.post('/auth/logout').set('Content-Type', 'text/plain').send('x').expect(204);
    });
  });
});
