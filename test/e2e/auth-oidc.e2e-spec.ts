import { captureLogs, LogCapture } from '../support/log-capture';
import { cookieValue, signInAtIdp } from '../support/oidc-flow';
import { IdpAccount, startIdp, TestIdp } from '../support/oidc-idp';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { createPeerApp, createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, createUser, login, signedIn } from '../support/users';

/**
 * OpenID Connect sign-in against a real provider (oidc-provider, test/support/oidc-idp.mjs):
 * provisioning, group and role mappings, every refused answer, and a sign-in that starts on
 * one instance and finishes on another.
 */
const PUBLIC_URL = 'http://kb.test';
const CALLBACK = `${PUBLIC_URL}/auth/oidc/test/callback`;
const CLIENT_SECRET = 'kb-client-secret-never-logged';

function account(groups: string[], extra: Partial<IdpAccount> = {}): IdpAccount {
  return {
    password: 'idp-password',
    name: 'Test Person',
    email: 'p@example.com',
    groups,
    ...extra,
  };
}

function withOwnEmails(accounts: Record<string, IdpAccount>): Record<string, IdpAccount> {
  return Object.fromEntries(
    Object.entries(accounts).map(([id, a]) => [id, { ...a, email: `${id}@example.com` }]),
  );
}

describe('OpenID Connect sign-in', () => {
  let idp: TestIdp;
  let t: TestApp;
  let logs: LogCapture;
  let admin: Client;

  beforeAll(async () => {
    idp = await startIdp({
      clients: [
        {
          client_id: 'kb',
          client_secret: CLIENT_SECRET,
          redirect_uris: [CALLBACK],
          post_logout_redirect_uris: [`${PUBLIC_URL}/login`],
        },
      ],
      // Each person their own verified address: kb keeps it, and one address is one person.
      accounts: withOwnEmails({
        ada: account(['idp-eng', 'idp-editors'], { name: 'Ada Lovelace' }),
        grace: account(['idp-readers']),
        linus: account(['idp-eng']),
        // The tampered token claims the admin group for her.
        mallory: account(['idp-readers']),
        blocked: account(['idp-eng'], { blocked: true }),
        taken: account([], { username: 'taken-name' }),
        dora: account(['idp-readers']),
        eve: account(['idp-eng']),
        pat: account(['idp-ops']),
        hedy: account([], { username: 'Hedy.Lamarr@example.com' }),
        lin: account(['idp-eng']),
        unverified: account([], { emailVerified: false }),
      }),
    });
    logs = captureLogs();
    t = await createTestApp({
      KB_PUBLIC_URL: PUBLIC_URL,
      LOG_LEVEL: 'info',
      OIDC_PROVIDERS: 'test',
      OIDC_TEST_ISSUER: idp.issuer,
      OIDC_TEST_CLIENT_ID: 'kb',
      OIDC_TEST_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_TEST_NAME: 'Test IdP',
      OIDC_TEST_ROLE_MAP: 'idp-admins=admin,idp-editors=editor,idp-readers=reader',
      OIDC_TEST_GROUP_MAP: 'idp-eng=engineering,idp-ops=ops',
    });
    admin = await signedIn(t, 'admin');
  });
  afterAll(async () => {
    logs?.stop();
    await t?.close();
    await idp?.close();
  });

  /** Starts a sign-in on `app`: the provider's authorization URL and the binding cookie. */
  async function begin(app: TestApp, returnTo?: string) {
    const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
    const res = await app.http().get(`/auth/oidc/test/login${query}`).expect(302);
    const binding = cookieValue(res.headers['set-cookie'], 'kb_sso');
    expect(binding).toBeTruthy();
    return { authorizationUrl: res.headers.location as string, binding: binding! };
  }

  /** kb's answer to the provider's redirect back. */
  function callback(app: TestApp, url: string, binding?: string) {
    const target = new URL(url);
    expect(`${target.origin}${target.pathname}`).toBe(CALLBACK);
    const req = app.http().get(`${target.pathname}${target.search}`);
    return binding ? req.set('Cookie', `kb_sso=${binding}`) : req;
  }

  /** A whole sign-in of `username`; answers kb's answer to the callback. */
  async function signInAs(username: string, app = t, returnTo?: string) {
    const { authorizationUrl, binding } = await begin(app, returnTo);
    return callback(app, await signInAtIdp(authorizationUrl, username, 'idp-password'), binding);
  }

  function sessionOf(res: { headers: Record<string, unknown> }): Client {
    const secret = cookieValue(res.headers['set-cookie'] as string[], 'kb_session');
    if (!secret) throw new Error('no session cookie');
    return new Client(t, { cookie: `kb_session=${secret}` });
  }

  async function countSessions(): Promise<number> {
    const [row] = await t.dataSource.query('SELECT COUNT(*) AS n FROM sessions');
    return Number(row.n);
  }

  /** Asserts that a refused callback set no session and started none. */
  async function expectNobodySignedIn(
    res: { headers: Record<string, unknown> },
    sessionsBefore: number,
  ) {
    expect(cookieValue(res.headers['set-cookie'] as string[], 'kb_session')).toBeUndefined();
    expect(await countSessions()).toBe(sessionsBefore);
  }

  it('lists the configured providers for the sign-in screen', async () => {
    const res = await t.http().get('/auth/providers').expect(200);
    expect(res.body).toEqual({
      items: [
        { id: 'test', name: 'Test IdP', protocol: 'oidc', signInUrl: '/auth/oidc/test/login' },
      ],
    });
  });

  it('sends the browser to the provider with PKCE, state, nonce and the exact redirect URI', async () => {
    const { authorizationUrl } = await begin(t);
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'kb',
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'openid profile email',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[\w-]{20,}$/),
      nonce: expect.stringMatching(/^[\w-]{20,}$/),
    });
    // Nothing about the sign-in is kept in the process: its state is a database row.
    const [row] = await t.dataSource.query('SELECT COUNT(*) AS n FROM sso_login_states');
    expect(Number(row.n)).toBeGreaterThan(0);
  });

  it('provisions the person at the first sign-in with the mapped role and groups', async () => {
    const before = logs.lines().length;
    const res = await signInAs('ada', t, '/pages/handbook?tab=1');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/pages/handbook?tab=1`);
    const me = await sessionOf(res).get('/api/me').expect(200);
    expect(me.body).toEqual({
      id: expect.any(String),
      username: 'ada',
      displayName: 'Ada Lovelace',
      role: 'editor',
      groups: ['engineering'],
    });
    const [identity] = await t.dataSource.query(
      'SELECT provider, subject, user_id FROM sso_identities WHERE user_id = ?',
      [me.body.id],
    );
    expect(identity).toEqual({ provider: 'oidc:test', subject: 'ada', user_id: me.body.id });
    // The person has no kb password: the password form cannot be used for the account.
    await t.http().post('/auth/login').send({ username: 'ada', password: '!sso' }).expect(401);

    const audit = logs
      .lines()
      .slice(before)
      .filter((l) => l.context === 'audit');
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: 'sso.user.provisioned',
          target: `user:${me.body.id}`,
          username: 'ada',
          provider: 'oidc:test',
          role: 'editor',
          groups: ['engineering'],
        }),
        expect.objectContaining({
          event: 'auth.sso.login.succeeded',
          actorId: me.body.id,
          provider: 'oidc:test',
        }),
      ]),
    );
    // Nothing secret in any line: no client secret, code, state, token or session secret.
    const text = JSON.stringify(logs.lines().slice(before));
    const secret = cookieValue(res.headers['set-cookie'], 'kb_session')!;
    expect(text).not.toContain(CLIENT_SECRET);
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ/); // a JWT
  });

  it('re-applies the mappings at every sign-in: changed provider groups change role and groups (audited)', async () => {
    const first = await signInAs('linus');
    const me = await sessionOf(first).get('/api/me').expect(200);
    expect(me.body).toMatchObject({ role: 'reader', groups: ['engineering'] });
    // An administrator adds a group the mapping does not manage: it stays.
    await createGroup(t, 'handbook-team');
    await admin
      .patch(`/api/users/${me.body.id}`)
      .send({ groups: ['engineering', 'handbook-team'] })
      .expect(200);

    await idp.setAccount('linus', account(['idp-ops', 'idp-admins']));
    const before = logs.lines().length;
    const second = await signInAs('linus');
    expect(second.status).toBe(303);
    const after = await sessionOf(second).get('/api/me').expect(200);
    expect(after.body).toMatchObject({
      id: me.body.id,
      role: 'admin',
      groups: ['handbook-team', 'ops'],
    });
    expect(logs.lines().slice(before)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: 'sso.mapping.applied',
          target: `user:${me.body.id}`,
          provider: 'oidc:test',
          role: 'admin',
          previousRole: 'reader',
          groupsAdded: ['ops'],
          groupsRemoved: ['engineering'],
        }),
      ]),
    );
    // The first session sees the new role at once (the credential generation moved).
    await sessionOf(first).get('/api/users').expect(200);
  });

  it('refuses a person disabled in kb, and disabling ends their sessions', async () => {
    const first = await signInAs('dora');
    const session = sessionOf(first);
    const me = await session.get('/api/me').expect(200);
    // The session says how it was made.
    const mine = await session.get('/api/me/sessions').expect(200);
    expect(mine.body.items).toEqual([expect.objectContaining({ method: 'oidc:test' })]);
    await admin.patch(`/api/users/${me.body.id}`).send({ disabled: true }).expect(200);
    expect((await session.get('/api/me').expect(401)).body).toEqual(
      problem(401, 'session_expired'),
    );
    const sessions = await countSessions();
    const refused = await signInAs('dora');
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
    expect(refused.body).toEqual(problem(403, 'account_disabled'));
    await expectNobodySignedIn(refused, sessions);
  });

  it('refuses a person the provider no longer lets in', async () => {
    const sessions = await countSessions();
    const res = await signInAs('blocked');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(problem(401, 'sso_denied'));
    await expectNobodySignedIn(res, sessions);
  });

  it('takes the username from the part of an address before its @ (a UPN, an email)', async () => {
    const res = await signInAs('hedy');
    expect(res.status).toBe(303);
    const me = await sessionOf(res).get('/api/me').expect(200);
    expect(me.body).toMatchObject({ username: 'hedy.lamarr', role: 'reader', groups: [] });
  });

  it('refuses to take over a kb account of the same name', async () => {
    await createUser(t, 'editor', { username: 'taken-name' });
    const sessions = await countSessions();
    const res = await signInAs('taken');
    expect(res.status).toBe(409);
    expect(res.body).toEqual(problem(409, 'sso_username_taken'));
    await expectNobodySignedIn(res, sessions);
  });

  it('joins a local account of the same verified email only when SSO_LINK_BY_EMAIL is on', async () => {
    const local = await createUser(t, 'editor', { username: 'lin-local' });
    await admin.patch(`/api/users/${local.id}`).send({ email: 'LIN@example.com' }).expect(200);
    const sessions = await countSessions();
    const refused = await signInAs('lin');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(problem(409, 'sso_email_in_use'));
    await expectNobodySignedIn(refused, sessions);

    await t.restart({ SSO_LINK_BY_EMAIL: 'on' });
    try {
      const res = await signInAs('lin');
      expect(res.status).toBe(303);
      const me = await sessionOf(res).get('/api/me').expect(200);
      expect(me.body).toMatchObject({
        id: local.id,
        username: 'lin-local',
        groups: ['engineering'],
      });
      expect(logs.lines()).toContainEqual(
        expect.objectContaining({
          event: 'sso.identity.linked',
          target: `user:${local.id}`,
          provider: 'oidc:test',
        }),
      );
    } finally {
      await t.restart();
      admin = await login(t, admin.user!);
    }
  });

  it('never links nor keeps an address the provider does not vouch for', async () => {
    const local = await createUser(t, 'editor', { username: 'unverified-local' });
    await admin
      .patch(`/api/users/${local.id}`)
      .send({ email: 'unverified@example.com' })
      .expect(200);
    const res = await signInAs('unverified');
    expect(res.status).toBe(303);
    const me = await sessionOf(res).get('/api/me/account').expect(200);
    expect(me.body).toMatchObject({ username: 'unverified', email: null });
    expect(me.body.id).not.toBe(local.id);
  });

  /** What the verification said, per kind of bad token (openid-client's words). */
  const DETAIL = { signature: /signature/i, expired: /exp|timestamp/i, audience: /aud/i };

  it.each([
    ['signature', 'a tampered ID token (claims changed after signing)'],
    ['expired', 'an expired ID token'],
    ['audience', 'an ID token for another client (wrong audience)'],
  ] as const)('refuses %s: %s', async (mode, _what) => {
    void _what;
    const { authorizationUrl, binding } = await begin(t);
    const back = await signInAtIdp(authorizationUrl, 'mallory', 'idp-password');
    await idp.tamperNextToken(mode);
    const sessions = await countSessions();
    const before = logs.lines().length;
    const res = await callback(t, back, binding);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(problem(401, 'sso_token_invalid'));
    await expectNobodySignedIn(res, sessions);
    // Audited with the verification error, never with the token itself.
    const lines = logs.lines().slice(before);
    expect(lines.filter((l) => l.event === 'auth.sso.login.failed')).toEqual([
      expect.objectContaining({
        actorId: null,
        target: 'provider:oidc:test',
        reason: 'token_invalid',
        detail: expect.stringMatching(DETAIL[mode]),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/eyJ[\w-]+\.eyJ/);
    // Mallory's forged admin group never made an account.
    const [row] = await t.dataSource.query(
      "SELECT COUNT(*) AS n FROM users WHERE username = 'mallory'",
    );
    expect(Number(row.n)).toBe(0);
  });

  it('refuses an unknown state', async () => {
    const { authorizationUrl, binding } = await begin(t);
    const back = new URL(await signInAtIdp(authorizationUrl, 'eve', 'idp-password'));
    back.searchParams.set('state', 'not-a-state-kb-made');
    const sessions = await countSessions();
    const res = await callback(t, back.toString(), binding);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(problem(400, 'sso_state_invalid'));
    await expectNobodySignedIn(res, sessions);
  });

  it('refuses a callback answered a second time (replayed code)', async () => {
    const { authorizationUrl, binding } = await begin(t);
    const back = await signInAtIdp(authorizationUrl, 'eve', 'idp-password');
    await callback(t, back, binding).expect(303);
    const sessions = await countSessions();
    const replay = await callback(t, back, binding);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(problem(400, 'sso_state_invalid'));
    await expectNobodySignedIn(replay, sessions);
  });

  it('refuses a callback in a browser that did not start the sign-in (login CSRF)', async () => {
    const { authorizationUrl } = await begin(t);
    const back = await signInAtIdp(authorizationUrl, 'eve', 'idp-password');
    const sessions = await countSessions();
    const res = await callback(t, back);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(problem(400, 'sso_state_invalid'));
    await expectNobodySignedIn(res, sessions);
    const other = await callback(t, back, 'another-browsers-binding');
    expect(other.status).toBe(400);
  });

  it.each([
    'https://evil.example/phish',
    '//evil.example/phish',
    '/\\evil.example/phish',
    'javascript:alert(1)',
  ])('lands inside kb when returnTo is %s', async (returnTo) => {
    const res = await signInAs('eve', t, returnTo);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/`);
  });

  it('shows a refused sign-in to a browser on the sign-in screen, in words there', async () => {
    const res = await t
      .http()
      .get('/auth/oidc/test/callback?state=unknown&code=x')
      .set('Accept', 'text/html,application/xhtml+xml')
      .expect(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/login?sso_error=sso_state_invalid`);
    expect(cookieValue(res.headers['set-cookie'], 'kb_session')).toBeUndefined();
  });

  it('answers 404 for a provider that is not configured', async () => {
    const res = await t.http().get('/auth/oidc/nope/login').expect(404);
    expect(res.body).toEqual(problem(404, 'sso_provider_not_found'));
  });

  it('finishes on another instance a sign-in started on this one', async () => {
    const peer = await createPeerApp(t);
    try {
      const { authorizationUrl, binding } = await begin(t, '/pages/from-one');
      const back = await signInAtIdp(authorizationUrl, 'pat', 'idp-password');
      const res = await callback(peer, back, binding).expect(303);
      expect(res.headers.location).toBe(`${PUBLIC_URL}/pages/from-one`);
      const me = await sessionOf(res).get('/api/me').expect(200);
      expect(me.body).toMatchObject({ username: 'pat', role: 'reader', groups: ['ops'] });
    } finally {
      await peer.close();
    }
  });

  it('signs out of kb and says where to end the provider session (RP-initiated logout)', async () => {
    const res = await signInAs('grace');
    const session = sessionOf(res);
    const out = await session.post('/auth/oidc/logout').expect(200);
    const end = new URL(out.body.redirectTo);
    expect(`${end.origin}${end.pathname}`).toBe(`${idp.issuer}/session/end`);
    expect(Object.fromEntries(end.searchParams)).toEqual({
      client_id: 'kb',
      post_logout_redirect_uri: `${PUBLIC_URL}/login`,
    });
    await session.get('/api/me').expect(401);
    // A session made with a password has no provider session to end.
    const local = await signedIn(t, 'reader');
    expect((await local.post('/auth/oidc/logout').expect(200)).body).toEqual({ redirectTo: null });
  });
});
