import { AccessTokenEntity } from '../../src/auth/entities/access-token.entity';
import { sha256Hex } from '../../src/auth/secrets';
import { UsersService } from '../../src/auth/users.service';
import { problem, validationProblem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('auth: personal access tokens', () => {
  let t: TestApp;
  let editor: Client;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    editor = await signedIn(t, 'editor');
  });
  afterAll(() => t.close());

  const tokens = () => t.dataSource.getRepository(AccessTokenEntity);

  it('creates a token: 201, shown once, stored only as its hash, never listed with its secret', async () => {
    const res = await editor.post('/api/tokens').send({ name: 'ci-import' }).expect(201);
    const token = res.body.token as string;
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.location).toBe(`/api/tokens/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'ci-import',
      token: expect.stringMatching(/^kb_pat_[A-Za-z0-9_-]{43}$/),
      prefix: token.slice(0, 12),
      scope: 'editor',
      paths: null,
      permissions: null,
      expiresAt: null,
      lastUsedAt: null,
      createdAt: expect.stringMatching(ISO),
    });

    const list = await editor.get('/api/tokens').expect(200);
    const { token: _secret, ...listed } = res.body;
    expect(list.body).toEqual({ items: [listed], nextCursor: null });
    expect(JSON.stringify(list.body)).not.toContain(token);

    // The database keeps the SHA-256 of the token and nothing from which it could be rebuilt.
    const rows: Record<string, unknown>[] = await t.dataSource.query('SELECT * FROM access_tokens');
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token.slice(12));
  });

  it('authenticates as its owner with Authorization: Bearer and records lastUsedAt', async () => {
    const bearer = await editor.withToken({ name: 'script' });
    const me = await bearer.get('/api/me').expect(200);
    expect(me.body).toEqual({
      id: editor.user!.id,
      username: editor.user!.username,
      displayName: editor.user!.username,
      role: 'editor',
      groups: [],
    });
    const [row] = await tokens().find();
    expect(row.lastUsedAt).not.toBeNull();
    expect(Date.now() - row.lastUsedAt!.getTime()).toBeLessThan(60_000);
    const list = await editor.get('/api/tokens').expect(200);
    expect(list.body.items[0].lastUsedAt).toBe(row.lastUsedAt!.toISOString());
  });

  it('accepts the scheme name in any case and refuses malformed or unknown tokens with 401', async () => {
    const bearer = await editor.withToken();
    await t.http().get('/api/me').set('Authorization', `bearer ${bearer.auth.bearer}`).expect(200);
    for (const header of [
      'Bearer kb_pat_unknown',
      'Bearer not-a-kb-token',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      'Bearer',
    ]) {
      const res = await t.http().get('/api/me').set('Authorization', header).expect(401);
      expect(res.body).toEqual(problem(401, 'invalid_token'));
    }
  });

  it('revokes a token at once: 204, then 401 and the row is gone', async () => {
    const created = await editor.post('/api/tokens').send({ name: 'short-lived' }).expect(201);
    const bearer = new Client(t, { bearer: created.body.token });
    await bearer.get('/api/me').expect(200);
    await editor.delete(`/api/tokens/${created.body.id}`).expect(204);
    const res = await bearer.get('/api/me').expect(401);
    expect(res.body).toEqual(problem(401, 'invalid_token'));
    expect(await tokens().count()).toBe(0);
    const again = await editor.delete(`/api/tokens/${created.body.id}`).expect(404);
    expect(again.body).toEqual(problem(404, 'token_not_found'));
  });

  it("answers 404 when revoking another user's token, which keeps working", async () => {
    const other = await signedIn(t, 'reader');
    const created = await other.post('/api/tokens').send({ name: 'mine' }).expect(201);
    const res = await editor.delete(`/api/tokens/${created.body.id}`).expect(404);
    expect(res.body).toEqual(problem(404, 'token_not_found'));
    await new Client(t, { bearer: created.body.token }).get('/api/me').expect(200);
    const list = await editor.get('/api/tokens').expect(200);
    expect(list.body).toEqual({ items: [], nextCursor: null });
  });

  it('takes an expiry: in the future it is returned; in the past or malformed it is 422', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const ok = await editor.post('/api/tokens').send({ name: 'expiring', expiresAt }).expect(201);
    expect(ok.body.expiresAt).toBe(expiresAt);

    const past = await editor
      .post('/api/tokens')
      .send({ name: 'old', expiresAt: '2020-01-01T00:00:00Z' })
      .expect(422);
    expect(past.body).toEqual(
      validationProblem({
        field: 'expiresAt',
        code: 'not_in_future',
        message: 'expiresAt must be a date in the future.',
      }),
    );
    const bad = await editor
      .post('/api/tokens')
      .send({ name: 'bad', expiresAt: 'tomorrow' })
      .expect(422);
    expect(bad.body).toEqual(
      validationProblem({
        field: 'expiresAt',
        code: 'is_iso8601',
        message: 'expiresAt must be a valid ISO 8601 date string',
      }),
    );
  });

  it('refuses a token whose expiry has passed with 401', async () => {
    const bearer = await editor.withToken({
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await bearer.get('/api/me').expect(200);
    await tokens().update({ userId: editor.user!.id }, { expiresAt: new Date(Date.now() - 1000) });
    const res = await bearer.get('/api/me').expect(401);
    expect(res.body).toEqual(problem(401, 'invalid_token'));
  });

  it('refuses a scope wider than the owner role (422) and narrows the role to the scope', async () => {
    const wide = await editor
      .post('/api/tokens')
      .send({ name: 'too wide', scope: 'admin' })
      .expect(422);
    expect(wide.body).toEqual(
      validationProblem({
        field: 'scope',
        code: 'scope_too_wide',
        message: 'A token cannot act with more than your role (editor).',
      }),
    );
    const unknown = await editor
      .post('/api/tokens')
      .send({ name: 'odd', scope: 'owner' })
      .expect(422);
    expect(unknown.body).toEqual(
      validationProblem({
        field: 'scope',
        code: 'is_in',
        message: 'scope must be one of the following values: reader, editor, admin',
      }),
    );

    const admin = await signedIn(t, 'admin');
    const reader = await admin.withToken({ scope: 'reader' });
    const me = await reader.get('/api/me').expect(200);
    expect(me.body.role).toBe('reader');
    const denied = await reader.get('/api/users').expect(403);
    expect(denied.body).toEqual(problem(403, 'insufficient_role'));
    await (await admin.withToken({ scope: 'admin' })).get('/api/users').expect(200);
  });

  it("follows the owner's role: a demoted owner's admin token loses admin rights", async () => {
    const admin = await signedIn(t, 'admin');
    await signedIn(t, 'admin'); // a second admin, so the first may be demoted
    const token = await admin.withToken();
    await token.get('/api/users').expect(200);
    await t.get(UsersService).update(admin.user!.id, { role: 'reader' }, 'test');
    await token.get('/api/users').expect(403);
  });

  it('refuses the token of a disabled owner with 401, and accepts it again once re-enabled', async () => {
    const bearer = await editor.withToken();
    await t.get(UsersService).update(editor.user!.id, { disabled: true }, 'test');
    const res = await bearer.get('/api/me').expect(401);
    expect(res.body).toEqual(problem(401, 'invalid_token'));
    await t.get(UsersService).update(editor.user!.id, { disabled: false }, 'test');
    await bearer.get('/api/me').expect(200);
  });

  it('keeps token management to browser sessions: a bearer token gets 401 session_required', async () => {
    const bearer = await editor.withToken();
    const created = await editor.post('/api/tokens').send({ name: 'other' }).expect(201);
    for (const res of [
      await bearer.get('/api/tokens'),
      await bearer.post('/api/tokens').send({ name: 'minted by a token' }),
      await bearer.delete(`/api/tokens/${created.body.id}`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(problem(401, 'session_required'));
    }
    expect(await tokens().count()).toBe(2);
  });

  it('validates the body: name required, unknown fields refused', async () => {
    const res = await editor.post('/api/tokens').send({ label: 'x' }).expect(422);
    expect(res.body).toEqual(
      validationProblem(
        { field: 'label', code: 'unknown_field', message: 'property label should not exist' },
        {
          field: 'name',
          code: 'is_length',
          message: 'name must be longer than or equal to 1 characters',
        },
        { field: 'name', code: 'is_string', message: 'name must be a string' },
      ),
    );
  });

  it('pages the list newest first', async () => {
    const base = Date.now() - 60_000;
    for (const [i, name] of ['one', 'two', 'three'].entries()) {
      await editor.post('/api/tokens').send({ name }).expect(201);
      // Distinct creation times: two tokens made in the same millisecond would order by id.
      await tokens().update({ name }, { createdAt: new Date(base + i * 1000) });
    }
    const first = await editor.get('/api/tokens?limit=2').expect(200);
    expect(first.body.items.map((i: { name: string }) => i.name)).toEqual(['three', 'two']);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await editor
      .get(`/api/tokens?limit=2&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(second.body).toEqual({
      items: [expect.objectContaining({ name: 'one' })],
      nextCursor: null,
    });
    const bad = await editor.get('/api/tokens?cursor=%%%').expect(400);
    expect(bad.body).toEqual(problem(400, 'invalid_cursor'));
    const limit = await editor.get('/api/tokens?limit=0').expect(422);
    expect(limit.body).toEqual(
      validationProblem({
        field: 'limit',
        code: 'out_of_range',
        message: 'limit must be a whole number from 1 to 100.',
      }),
    );
  });
});

describe('auth: live tokens per person are capped (TOKEN_MAX_PER_USER, issue 28 item 4)', () => {
  let t: TestApp;
  let reader: Client;
  beforeAll(async () => {
    t = await createTestApp({ TOKEN_MAX_PER_USER: '3' });
  });
  beforeEach(async () => {
    await t.reset();
    reader = await signedIn(t, 'reader');
  });
  afterAll(() => t.close());

  const tokens = () => t.dataSource.getRepository(AccessTokenEntity);
  const tooMany = problem(409, 'too_many_tokens', {
    detail:
      'You already hold 3 live tokens, the most one person may (TOKEN_MAX_PER_USER). Revoke one you no longer use first.',
    limit: 3,
  });

  it('refuses the token past the cap with 409 too_many_tokens and writes nothing; revoked and expired ones make room', async () => {
    const made: string[] = [];
    for (const name of ['one', 'two', 'three'])
      made.push((await reader.post('/api/tokens').send({ name }).expect(201)).body.id as string);
    const refused = await reader.post('/api/tokens').send({ name: 'four' }).expect(409);
    expect(refused.body).toEqual(tooMany);
    expect(await tokens().countBy({ userId: reader.user!.id })).toBe(3);
    // Another person has a cap of their own.
    const other = await signedIn(t, 'reader');
    await other.post('/api/tokens').send({ name: 'theirs' }).expect(201);
    // A revoked token makes room.
    await reader.delete(`/api/tokens/${made[0]}`).expect(204);
    await reader.post('/api/tokens').send({ name: 'four' }).expect(201);
    await reader.post('/api/tokens').send({ name: 'five' }).expect(409);
    // So does an expired one (it still is listed until revoked, but no longer counts).
    await tokens().update({ id: made[1] }, { expiresAt: new Date(Date.now() - 1000) });
    await reader.post('/api/tokens').send({ name: 'five' }).expect(201);
    expect(await tokens().countBy({ userId: reader.user!.id })).toBe(4);
  });

  it('lets exactly one of several requests at once take the last place', async () => {
    await reader.post('/api/tokens').send({ name: 'one' }).expect(201);
    await reader.post('/api/tokens').send({ name: 'two' }).expect(201);
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((name) => reader.post('/api/tokens').send({ name })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409))
      expect(answer.body).toEqual(tooMany);
    expect(await tokens().countBy({ userId: reader.user!.id })).toBe(3);
  });
});
