import { problem, validationProblem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createUser, login, signedIn, TestUser } from '../support/users';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const loginAs = (t: TestApp, user: TestUser, userAgent: string) => login(t, user, { userAgent });

describe('accounts: your sessions and your password (the Account screen)', () => {
  let t: TestApp;
  let user: TestUser;
  let me: Client;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES: '3' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    user = await createUser(t, 'reader');
    me = await login(t, user);
  });

  const sessionRows = async (userId: string) =>
    (await t.dataSource.query('SELECT id FROM sessions WHERE user_id = ? ORDER BY id', [
      userId,
    ])) as { id: string }[];

  it('lists your live sessions with browser, address and last seen, this one marked', async () => {
    await t.reset();
    await createUser(t, 'reader').then((u) => Object.assign(user, u));
    const chrome = await loginAs(t, user, CHROME);
    const firefox = await loginAs(t, user, FIREFOX);
    const someoneElse = await signedIn(t, 'editor');
    const res = await chrome.get('/api/me/sessions').expect(200);
    expect(res.body).toEqual({
      items: expect.arrayContaining([
        {
          id: expect.stringMatching(/^[0-9a-f]{64}$/),
          current: true,
          browser: 'Chrome on Linux',
          ip: expect.any(String),
          userAgent: CHROME,
          method: 'password',
          createdAt: ISO,
          lastSeenAt: ISO,
        },
        {
          id: expect.stringMatching(/^[0-9a-f]{64}$/),
          current: false,
          browser: 'Firefox on Windows',
          ip: expect.any(String),
          userAgent: FIREFOX,
          method: 'password',
          createdAt: ISO,
          lastSeenAt: ISO,
        },
      ]),
      nextCursor: null,
    });
    expect(res.body.items).toHaveLength(2);
    expect((await someoneElse.get('/api/me/sessions').expect(200)).body.items).toHaveLength(1);
    // Paged like every list.
    const first = await firefox.get('/api/me/sessions?limit=1').expect(200);
    expect(first.body.items).toHaveLength(1);
    const second = await firefox
      .get(`/api/me/sessions?limit=1&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expect(second.body.nextCursor).toBeNull();
  });

  it('signs one session out at once; another person’s session id or a made-up one is 404', async () => {
    const other = await loginAs(t, user, FIREFOX);
    const stranger = await signedIn(t, 'editor');
    const strangerSession = (await stranger.get('/api/me/sessions').expect(200)).body.items[0].id;
    const mine = (await me.get('/api/me/sessions').expect(200)).body.items as {
      id: string;
      current: boolean;
    }[];
    const otherId = mine.find((s) => !s.current)!.id;

    const foreign = await me.delete(`/api/me/sessions/${strangerSession}`).expect(404);
    expect(foreign.body).toEqual(problem(404, 'session_not_found'));
    await stranger.get('/api/me').expect(200);
    for (const bad of ['nope', 'a'.repeat(64), strangerSession.toUpperCase()]) {
      expect((await me.delete(`/api/me/sessions/${bad}`).expect(404)).body).toEqual(
        problem(404, 'session_not_found'),
      );
    }

    await me.delete(`/api/me/sessions/${otherId}`).expect(204);
    expect((await other.get('/api/me').expect(401)).body.code).toBe('session_expired');
    await me.get('/api/me').expect(200);
    expect((await sessionRows(user.id)).map((r) => r.id)).not.toContain(otherId);
    await me.delete(`/api/me/sessions/${otherId}`).expect(404);
  });

  it('signs out everywhere else: other sessions end, this one and tokens stay', async () => {
    const others = [await loginAs(t, user, FIREFOX), await login(t, user)];
    const token = await me.withToken();
    const stranger = await signedIn(t, 'editor');
    await me.delete('/api/me/sessions').expect(204);
    for (const ended of others)
      expect((await ended.get('/api/me').expect(401)).body.code).toBe('session_expired');
    await me.get('/api/me').expect(200);
    await token.get('/api/me').expect(200);
    await stranger.get('/api/me').expect(200);
    expect(await sessionRows(user.id)).toHaveLength(1);
  });

  it('changes the password with POST /api/me/password: every other session ends and says how many', async () => {
    const others = [await loginAs(t, user, FIREFOX), await login(t, user)];
    const res = await me
      .post('/api/me/password')
      .send({ currentPassword: user.password, newPassword: 'a brand new password' })
      .expect(200);
    expect(res.body).toEqual({ sessionsEnded: 2 });
    for (const ended of others)
      expect((await ended.get('/api/me').expect(401)).body.code).toBe('session_expired');
    await me.get('/api/me').expect(200);
    const signIn = (password: string) =>
      t.http().post('/auth/login').send({ username: user.username, password });
    await signIn(user.password).expect(401);
    await signIn('a brand new password').expect(200);
  });

  it('refuses a wrong or missing current password (422) and a short new one, changing nothing', async () => {
    const other = await login(t, user);
    const wrong = await me
      .post('/api/me/password')
      .send({ currentPassword: 'not it at all', newPassword: 'a brand new password' })
      .expect(422);
    expect(wrong.body).toEqual(
      validationProblem({
        field: 'currentPassword',
        code: 'wrong_password',
        message: 'The current password is wrong.',
      }),
    );
    const missing = await me
      .post('/api/me/password')
      .send({ newPassword: 'a brand new password' })
      .expect(422);
    expect(new Set(missing.body.errors.map((e: { field: string }) => e.field))).toEqual(
      new Set(['currentPassword']),
    );
    const short = await me
      .post('/api/me/password')
      .send({ currentPassword: user.password, newPassword: 'short' })
      .expect(422);
    expect(short.body.errors.map((e: { field: string }) => e.field)).toEqual(['newPassword']);
    await other.get('/api/me').expect(200);
    await t
      .http()
      .post('/auth/login')
      .send({ username: user.username, password: user.password })
      .expect(200);
  });

  it('counts wrong current passwords against the sign-in throttle (429, even with the right one)', async () => {
    const attempt = (currentPassword: string) =>
      me.post('/api/me/password').send({ currentPassword, newPassword: 'a brand new password' });
    for (let i = 0; i < 3; i++) await attempt('guess').expect(422);
    const throttled = await attempt(user.password).expect(429);
    expect(throttled.body).toEqual(problem(429, 'login_throttled'));
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keeps these routes to browser sessions: tokens 401, other sites 403, anonymous 401', async () => {
    const token = await me.withToken();
    for (const [method, path] of [
      ['get', '/api/me/sessions'],
      ['delete', '/api/me/sessions'],
      ['delete', `/api/me/sessions/${'a'.repeat(64)}`],
      ['post', '/api/me/password'],
    ] as const) {
      expect((await token[method](path).expect(401)).body.code).toBe('session_required');
      await anonymous(t)[method](path).expect(401);
    }
    const crossSite = await t
      .http()
      .post('/api/me/password')
      .set('Cookie', me.auth.cookie!)
      .set('Origin', 'https://evil.example')
      .send({ currentPassword: user.password, newPassword: 'a brand new password' })
      .expect(403);
    expect(crossSite.body.code).toBe('cross_origin_refused');
  });

  it('keeps an email and answers the account with its last sign-in', async () => {
    const before = await me.get('/api/me/account').expect(200);
    expect(before.body).toEqual({
      id: user.id,
      username: user.username,
      displayName: user.username,
      email: null,
      role: 'reader',
      groups: [],
      lastLoginAt: ISO,
      createdAt: ISO,
    });
    await me.patch('/api/me').send({ displayName: 'Ada', email: 'ada@example.com' }).expect(200);
    const after = (await me.get('/api/me/account').expect(200)).body;
    expect(after).toMatchObject({ displayName: 'Ada', email: 'ada@example.com' });
    const bad = await me.patch('/api/me').send({ email: 'not an address' }).expect(422);
    expect(bad.body).toEqual(
      validationProblem({
        field: 'email',
        code: 'is_email',
        message: 'email must be an email address, such as ada@example.com',
      }),
    );
    await me.patch('/api/me').send({ email: null }).expect(200);
    expect((await me.get('/api/me/account').expect(200)).body.email).toBeNull();
  });
});

describe('accounts: the users screen (email, last sign-in, locked, filter, unlock)', () => {
  let t: TestApp;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES: '2' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
  });

  it('shows a throttled account as locked until an administrator unlocks it', async () => {
    const user = await createUser(t, 'editor');
    const signIn = (password: string) =>
      t.http().post('/auth/login').send({ username: user.username, password });
    const locked = async () =>
      (await admin.get(`/api/users/${user.id}`).expect(200)).body.locked as boolean;
    expect(await locked()).toBe(false);
    await signIn('wrong-1').expect(401);
    expect(await locked()).toBe(false);
    await signIn('wrong-2').expect(401);
    expect(await locked()).toBe(true);
    const listed = (await admin.get('/api/users').expect(200)).body.items as {
      id: string;
      locked: boolean;
    }[];
    expect(listed.find((u) => u.id === user.id)!.locked).toBe(true);
    await signIn(user.password).expect(429);
    await admin.post(`/api/users/${user.id}/unlock`).expect(204);
    expect(await locked()).toBe(false);
    await signIn(user.password).expect(200);
  });

  it('answers email and last sign-in, and filters by username, display name or email', async () => {
    const ada = await createUser(t, 'editor', { username: 'ada-l' });
    await createUser(t, 'reader', { username: 'grace' });
    await admin
      .patch(`/api/users/${ada.id}`)
      .send({ email: 'countess@analytical.example', displayName: 'Ada Lovelace' })
      .expect(200);
    const neverSignedIn = (await admin.get(`/api/users/${ada.id}`).expect(200)).body;
    expect(neverSignedIn).toEqual({
      id: ada.id,
      username: 'ada-l',
      displayName: 'Ada Lovelace',
      email: 'countess@analytical.example',
      lastLoginAt: null,
      signIn: ['local'],
      locked: false,
      role: 'editor',
      groups: [],
      disabled: false,
      twoFactor: { totp: false, passkeys: 0 },
      createdAt: ISO,
      updatedAt: ISO,
    });
    await login(t, ada);
    expect((await admin.get(`/api/users/${ada.id}`).expect(200)).body.lastLoginAt).toEqual(ISO);

    const names = async (q: string) =>
      (
        (await admin.get(`/api/users?q=${encodeURIComponent(q)}`).expect(200)).body.items as {
          username: string;
        }[]
      ).map((u) => u.username);
    expect(await names('ADA')).toEqual(['ada-l']);
    expect(await names('lovelace')).toEqual(['ada-l']);
    expect(await names('analytical')).toEqual(['ada-l']);
    expect(await names('gra')).toEqual(['grace']);
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    expect((await names('')).length).toBe(3);
    const created = await admin
      .post('/api/users')
      .send({ username: 'hedy', password: 'a long password', role: 'reader', email: 'h@x.example' })
      .expect(201);
    expect(created.body).toMatchObject({ email: 'h@x.example', lastLoginAt: null, locked: false });
    expect(
      (await admin.get(`/api/users?q=${'x'.repeat(101)}`).expect(422)).body.errors[0].field,
    ).toBe('q');
  });
});
