import { problem, validationProblem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createUser, login, signedIn, TestUser } from '../support/users';

describe('accounts: PATCH /api/me (self-service)', () => {
  let t: TestApp;
  let user: TestUser;
  let me: Client;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES: '3' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    user = await createUser(t, 'editor');
    me = await login(t, user);
  });

  const signIn = (password: string) =>
    t.http().post('/auth/login').send({ username: user.username, password });

  it('changes the display name and answers the caller as GET /api/me does', async () => {
    const res = await me.patch('/api/me').send({ displayName: 'Ada Lovelace' }).expect(200);
    expect(res.body).toEqual({
      id: user.id,
      username: user.username,
      displayName: 'Ada Lovelace',
      role: 'editor',
      groups: [],
    });
    expect((await me.get('/api/me').expect(200)).body.displayName).toBe('Ada Lovelace');
  });

  it('changes the password with the current one: other sessions end, this one and tokens stay', async () => {
    const other = await login(t, user);
    const token = await me.withToken();
    await me
      .patch('/api/me')
      .send({ password: 'a brand new password', currentPassword: user.password })
      .expect(200);
    await me.get('/api/me').expect(200);
    await token.get('/api/me').expect(200);
    expect((await other.get('/api/me').expect(401)).body.code).toBe('session_expired');
    await signIn(user.password).expect(401);
    await signIn('a brand new password').expect(200);
  });

  it('needs the current password for a new one (422) and changes nothing without it', async () => {
    const missing = await me.patch('/api/me').send({ password: 'a brand new password' });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual(
      validationProblem({
        field: 'currentPassword',
        code: 'required',
        message: 'Send your current password to set a new one.',
      }),
    );
    const wrong = await me.patch('/api/me').send({
      password: 'a brand new password',
      currentPassword: 'not it at all',
      displayName: 'X',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual(
      validationProblem({
        field: 'currentPassword',
        code: 'wrong_password',
        message: 'The current password is wrong.',
      }),
    );
    expect((await me.get('/api/me').expect(200)).body.displayName).toBe(user.username);
    await signIn(user.password).expect(200);
  });

  it('counts wrong current passwords against the sign-in throttle (429)', async () => {
    const attempt = () =>
      me.patch('/api/me').send({ password: 'a brand new password', currentPassword: 'guess' });
    for (let i = 0; i < 3; i++) await attempt().expect(422);
    const throttled = await attempt().expect(429);
    expect(throttled.body).toEqual(problem(429, 'login_throttled'));
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    await signIn(user.password).expect(429);
  });

  it('revokes every token of the caller with revokeTokens: true', async () => {
    const first = await me.withToken();
    const second = await me.withToken({ name: 'second' });
    await me.patch('/api/me').send({ revokeTokens: true }).expect(200);
    for (const token of [first, second])
      expect((await token.get('/api/me').expect(401)).body.code).toBe('invalid_token');
    expect((await me.get('/api/tokens').expect(200)).body.items).toEqual([]);
    await me.get('/api/me').expect(200);
  });

  it('refuses bad fields (422), tokens (401), other sites (403) and anonymous callers (401)', async () => {
    const bad = await me
      .patch('/api/me')
      .send({ password: 'short', currentPassword: user.password, role: 'admin' })
      .expect(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'password',
      'role',
    ]);
    const token = await me.withToken();
    expect((await token.patch('/api/me').send({ displayName: 'T' }).expect(401)).body.code).toBe(
      'session_required',
    );
    const crossSite = await t
      .http()
      .patch('/api/me')
      .set('Cookie', me.auth.cookie!)
      .set('Origin', 'https://evil.example')
      .send({ displayName: 'Hijacked' })
      .expect(403);
    expect(crossSite.body.code).toBe('cross_origin_refused');
    await anonymous(t).patch('/api/me').send({ displayName: 'Nobody' }).expect(401);
    expect((await me.get('/api/me').expect(200)).body.displayName).toBe(user.username);
  });
});

describe("accounts: an administrator's hold on someone's credentials", () => {
  let t: TestApp;
  let admin: Client;
  let user: TestUser;
  let session: Client;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES: '2' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    user = await createUser(t, 'editor');
    session = await login(t, user);
  });

  it("lists a user's tokens without their secrets and revokes one at once", async () => {
    const kept = await session.withToken({ name: 'kept' });
    const doomed = await session.withToken({ name: 'doomed' });
    await admin.withToken({ name: "the admin's own" });
    const listed = await admin.get(`/api/users/${user.id}/tokens`).expect(200);
    expect(listed.body.items.map((i: { name: string }) => i.name)).toEqual(['doomed', 'kept']);
    expect(listed.body.items[0]).not.toHaveProperty('token');
    expect(Object.keys(listed.body.items[0]).sort()).toEqual(
      [
        'createdAt',
        'expiresAt',
        'id',
        'lastUsedAt',
        'name',
        'paths',
        'permissions',
        'prefix',
        'scope',
      ].sort(),
    );
    const doomedId = listed.body.items[0].id as string;
    await admin.delete(`/api/users/${user.id}/tokens/${doomedId}`).expect(204);
    expect((await doomed.get('/api/me').expect(401)).body.code).toBe('invalid_token');
    await kept.get('/api/me').expect(200);
    // Another user's token is not this user's: 404, and it keeps working.
    const adminTokens = (await admin.get(`/api/users/${admin.user!.id}/tokens`).expect(200)).body;
    const foreign = await admin
      .delete(`/api/users/${user.id}/tokens/${adminTokens.items[0].id}`)
      .expect(404);
    expect(foreign.body).toEqual(problem(404, 'token_not_found'));
  });

  it('ends every session of a user; their tokens keep working', async () => {
    const second = await login(t, user);
    const token = await session.withToken();
    await admin.delete(`/api/users/${user.id}/sessions`).expect(204);
    for (const ended of [session, second])
      expect((await ended.get('/api/me').expect(401)).body.code).toBe('session_expired');
    await token.get('/api/me').expect(200);
    await admin.get('/api/me').expect(200);
  });

  it('unlocks an account that failed sign-ins throttled', async () => {
    const signIn = (password: string) =>
      t.http().post('/auth/login').send({ username: user.username, password });
    await signIn('wrong-1').expect(401);
    await signIn('wrong-2').expect(401);
    await signIn(user.password).expect(429);
    await admin.post(`/api/users/${user.id}/unlock`).expect(204);
    await signIn(user.password).expect(200);
  });

  it('answers 404 for an unknown user, 403 for non-admins, 401 for a token on token routes', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['get', `/api/users/${unknown}/tokens`],
      ['delete', `/api/users/${unknown}/tokens/${unknown}`],
      ['delete', `/api/users/${unknown}/sessions`],
      ['post', `/api/users/${unknown}/unlock`],
    ] as const) {
      expect((await admin[method](path).expect(404)).body).toEqual(problem(404, 'user_not_found'));
      expect((await session[method](path).expect(403)).body.code).toBe('insufficient_role');
    }
    const adminToken = await admin.withToken();
    expect((await adminToken.get(`/api/users/${user.id}/tokens`).expect(401)).body.code).toBe(
      'session_required',
    );
    // Ending sessions and unlocking work for automation too (any credential, admin role).
    await adminToken.delete(`/api/users/${user.id}/sessions`).expect(204);
    await adminToken.post(`/api/users/${user.id}/unlock`).expect(204);
  });
});
