import { listRoutes } from '../../src/common/http/route-inventory';
import { expectNoLeak } from '../support/hygiene';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createUser, login, signedIn } from '../support/users';

describe('problems, operations and response hygiene', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp({ JSON_BODY_LIMIT_BYTES: '1024', LOGIN_MAX_FAILURES: '2' });
  });
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
  });
  afterAll(() => t.close());

  /** A JSON route that takes a body, for the body-parsing problems. */
  const jsonPost = () => admin.post('/api/groups').set('Content-Type', 'application/json');

  it('400 invalid_json for a body that is not JSON', async () => {
    const res = await jsonPost().send('{"name": ').expect(400);
    expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
    expect(res.body).toEqual({
      type: 'urn:kb:problem:invalid_json',
      title: 'Bad Request',
      status: 400,
      detail: 'The request body is not valid JSON.',
      instance: '/api/groups',
      code: 'invalid_json',
      requestId: expect.any(String),
    });
  });

  it('400 invalid_body for a JSON array, a JSON scalar or no body; 415 for a non-JSON content type', async () => {
    const expected = {
      type: 'urn:kb:problem:invalid_body',
      title: 'Bad Request',
      status: 400,
      detail: 'The request body must be a JSON object (Content-Type: application/json).',
      instance: '/api/groups',
      code: 'invalid_body',
      requestId: expect.any(String),
    };
    expect((await jsonPost().send('[{"name":"x"}]').expect(400)).body).toEqual(expected);
    expect(
      (
        await admin
          .post('/api/groups')
          .set('Content-Type', 'text/plain')
          .send('{"name":"x"}')
          .expect(415)
      ).body,
    ).toEqual(problem(415, 'unsupported_media_type'));
    expect((await admin.post('/api/groups').expect(400)).body).toEqual(expected);
    // A bare JSON scalar is not even accepted by the strict parser.
    expect((await jsonPost().send('"x"').expect(400)).body).toEqual(problem(400, 'invalid_json'));
  });

  it('413 payload_too_large for a JSON body over JSON_BODY_LIMIT_BYTES', async () => {
    const res = await jsonPost()
      .send(JSON.stringify({ name: 'x'.repeat(2000) }))
      .expect(413);
    expect(res.body).toEqual({
      type: 'urn:kb:problem:payload_too_large',
      title: 'Content Too Large',
      status: 413,
      detail: 'The request body is larger than this route accepts.',
      instance: '/api/groups',
      code: 'payload_too_large',
      requestId: expect.any(String),
    });
  });

  it('415 unsupported_encoding for a charset the JSON parser does not read', async () => {
    const res = await admin
      .post('/api/groups')
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{"name":"x"}')
      .expect(415);
    expect(res.body).toEqual(problem(415, 'unsupported_encoding'));
  });

  it('401, 403 and 422 bodies', async () => {
    const unauthenticated = await anonymous(t).get('/api/users').expect(401);
    expect(unauthenticated.headers['www-authenticate']).toBe('Bearer realm="kb"');
    expect(unauthenticated.body).toEqual({
      type: 'urn:kb:problem:unauthenticated',
      title: 'Unauthorized',
      status: 401,
      detail: 'Sign in or send a valid bearer token.',
      instance: '/api/users',
      code: 'unauthenticated',
      requestId: expect.any(String),
    });
    const reader = await signedIn(t, 'reader');
    expect((await reader.get('/api/users').expect(403)).body).toEqual({
      type: 'urn:kb:problem:insufficient_role',
      title: 'Forbidden',
      status: 403,
      detail: 'This needs the role admin.',
      instance: '/api/users',
      code: 'insufficient_role',
      requestId: expect.any(String),
    });
    expect((await jsonPost().send({}).expect(422)).body).toEqual({
      type: 'urn:kb:problem:validation_failed',
      title: 'Unprocessable Content',
      status: 422,
      detail: 'Some fields are invalid.',
      instance: '/api/groups',
      code: 'validation_failed',
      requestId: expect.any(String),
      errors: [
        {
          field: 'name',
          code: 'matches',
          message:
            'name must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
        },
        { field: 'name', code: 'is_string', message: 'name must be a string' },
      ],
    });
  });

  it('404 route_not_found for unknown routes, with or without credentials, without the query string', async () => {
    for (const client of [anonymous(t), admin]) {
      const res = await client.get('/api/no-such-thing?secret=1').expect(404);
      expect(res.body).toEqual({
        type: 'urn:kb:problem:route_not_found',
        title: 'Not Found',
        status: 404,
        detail: 'No route answers GET /api/no-such-thing.',
        instance: '/api/no-such-thing',
        code: 'route_not_found',
        requestId: expect.any(String),
      });
    }
    expect((await admin.delete('/api/me').expect(404)).body).toEqual(
      problem(404, 'route_not_found'),
    );
    expect((await anonymous(t).get('/export/nothing').expect(404)).body).toEqual(
      problem(404, 'route_not_found'),
    );
  });

  it('429 login_throttled with Retry-After', async () => {
    const user = await createUser(t, 'reader');
    for (let i = 0; i < 2; i += 1)
      await t
        .http()
        .post('/auth/login')
        .send({ username: user.username, password: 'nope-nope' })
        .expect(401);
    const res = await t
      .http()
      .post('/auth/login')
      .send({ username: user.username, password: user.password })
      .expect(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.body).toEqual({
      type: 'urn:kb:problem:login_throttled',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Too many failed sign-ins for this account or address; try again later.',
      instance: '/auth/login',
      code: 'login_throttled',
      requestId: expect.any(String),
    });
  });

  it('echoes a sane X-Request-Id, replaces an insane one, and puts it in problem bodies', async () => {
    const mine = await t
      .http()
      .get('/api/nope')
      .set('X-Request-Id', 'trace-123.abc_DEF')
      .expect(404);
    expect(mine.headers['x-request-id']).toBe('trace-123.abc_DEF');
    expect(mine.body.requestId).toBe('trace-123.abc_DEF');
    const insane = await t
      .http()
      .get('/healthz')
      .set('X-Request-Id', 'bad id <script>')
      .expect(200);
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const generated = await t.http().get('/api/nope').expect(404);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.body.requestId).toBe(generated.headers['x-request-id']);
  });

  it('sends security headers and no X-Powered-By', async () => {
    for (const res of [
      await t.http().get('/healthz'),
      await anonymous(t).get('/api/me'),
      await admin.get('/api/me'),
    ]) {
      expect(res.headers).toEqual(
        expect.objectContaining({
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'SAMEORIGIN',
          'referrer-policy': 'no-referrer',
          'cross-origin-resource-policy': 'same-origin',
          'strict-transport-security': 'max-age=15552000; includeSubDomains',
          'content-security-policy': expect.stringContaining("default-src 'self'"),
        }),
      );
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).toContain("object-src 'none'");
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('serves /healthz, /readyz and the OpenAPI document to anyone', async () => {
    await t.http().get('/healthz').expect(200, { status: 'ok' });
    await t.http().get('/readyz').expect(200, { status: 'ready', database: 'up' });
    const doc = await t.http().get('/api/docs/json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    await t.http().get('/api/docs').expect(200).expect('Content-Type', /html/);
  });

  it('never carries a hash, a stack trace or SQL in any answer', async () => {
    const bodies: [string, string][] = [];
    const record = (label: string, res: { text?: string; body?: unknown }) =>
      bodies.push([label, res.text ?? JSON.stringify(res.body)]);
    const user = await createUser(t, 'editor');
    const session = await login(t, user);
    const bearer = await session.withToken({ name: 'hygiene' });
    record(
      'POST /api/users',
      await admin
        .post('/api/users')
        .send({ username: 'hygienic', password: 'long-enough-pw', role: 'reader' }),
    );
    record('POST /api/groups', await admin.post('/api/groups').send({ name: 'clean' }));
    record('POST /api/tokens', await session.post('/api/tokens').send({ name: 'x' }));
    record(
      'PATCH /api/users',
      await admin.patch(`/api/users/${user.id}`).send({ password: 'another-password' }),
    );
    record(
      'login 401',
      await t.http().post('/auth/login').send({ username: user.username, password: 'wrong' }),
    );
    record(
      'bad json',
      await admin
        .post('/api/users')
        .set('Content-Type', 'application/json')
        .send('{"password": "x'),
    );
    record('422', await admin.post('/api/users').send({ username: 'x', password: 1, role: 'x' }));
    // Every GET route the app has, with placeholder parameters, as admin, bearer and anonymous.
    const again = await signedIn(t, 'admin');
    for (const route of listRoutes(t.app).filter(
      (r) => r.method === 'GET' && !r.path.startsWith('/api/docs'),
    )) {
      const path = route.path.replace(/:[A-Za-z0-9_]+|\*[A-Za-z0-9_]*|\{\*?[^}]+\}/g, 'x');
      // The live event stream never ends for someone allowed to follow it: only its refusal.
      const streams = path === '/api/events/stream';
      for (const [who, client] of [
        ['admin', again],
        ['bearer', bearer],
        ['anonymous', anonymous(t)],
      ] as const) {
        if (streams && who !== 'anonymous') continue;
        record(`${who} GET ${path}`, await client.get(path));
      }
    }
    expect(bodies.length).toBeGreaterThan(10);
    for (const [label, text] of bodies) expectNoLeak(label, text);
  });
});

describe('when the database is gone', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 503 database_unavailable with Retry-After and no internals, like /readyz', async () => {
    const admin = await signedIn(t, 'admin');
    await t.dataSource.destroy();

    const res = await admin.get('/api/users').expect(503);
    expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({
      type: 'urn:kb:problem:database_unavailable',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The database does not answer; try again shortly.',
      instance: '/api/users',
      code: 'database_unavailable',
      requestId: res.headers['x-request-id'],
    });
    expectNoLeak('503', res.text);
    expect(res.text).not.toMatch(/DataSource|connection|pool|typeorm/i);

    const ready = await t.http().get('/readyz').expect(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.body).toEqual(
      problem(503, 'database_unavailable', {
        title: 'Service Unavailable',
        detail: 'The database does not answer.',
      }),
    );
    await t.http().get('/healthz').expect(200, { status: 'ok' });
  });
});
