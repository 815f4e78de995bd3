import { generate } from 'otplib';
import request from 'supertest';
import { Database } from '../../src/common/database/database';
import { problem } from '../support/problems';
import { createPeerApp, createTestApp, TestApp } from '../support/test-app';
import { Client, createUser, login, TestUser } from '../support/users';

/** Each test signs in from an address of its own: the per-address counter must not leak. */
let nextAddress = 1;
function address(): string {
  nextAddress += 1;
  return `10.29.${Math.floor(nextAddress / 250)}.${nextAddress % 250}`;
}

function cookieNamed(res: request.Response, name: string): string | undefined {
  const all = ([] as string[]).concat(
    (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [],
  );
  return all.map((c) => c.split(';')[0]).find((c) => c.startsWith(`${name}=`) && c !== `${name}=`);
}

/** The TOTP code of `secret` one period from now (a different step than the current one). */
function codeAt(secret: string, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
}

describe('auth: two-factor (TOTP, recovery codes, REQUIRE_2FA)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: 'true',
      LOGIN_MAX_FAILURES: '4',
      LOGIN_IP_MAX_FAILURES: '100',
      LOGIN_WINDOW_SECONDS: '600',
    });
  });
  afterAll(() => t.close());

  function password(user: TestUser, ip = address()) {
    return t
      .http()
      .post('/auth/login')
      .set('X-Forwarded-For', ip)
      .send({ username: user.username, password: user.password });
  }

  /** The second step, with the pending cookie of the first. */
  function verify(pending: string, code: string, ip = address()) {
    return t
      .http()
      .post('/auth/2fa/verify')
      .set('X-Forwarded-For', ip)
      .set('Cookie', pending)
      .send({ code });
  }

  /** Turns TOTP on through the Account routes; answers the secret and the recovery codes. */
  async function enrol(client: Client): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await client.post('/api/me/two-factor/totp').expect(200);
    expect(setup.body).toEqual({
      secret: expect.stringMatching(/^[A-Z2-7]{16,}$/),
      otpauthUri: expect.stringMatching(/^otpauth:\/\/totp\/kb:.*secret=/),
      qrCode: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
    });
    const secret = setup.body.secret as string;
    const enabled = await client
      .post('/api/me/two-factor/totp/enable')
      .send({ code: await codeAt(secret) })
      .expect(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    return { secret, recoveryCodes: enabled.body.recoveryCodes as string[] };
  }

  async function pendingFor(user: TestUser, ip = address()): Promise<string> {
    const res = await password(user, ip).expect(401);
    expect(res.body).toEqual(
      problem(401, 'second_factor_required', { methods: ['totp', 'recovery_code'] }),
    );
    expect(cookieNamed(res, 'kb_session')).toBeUndefined();
    const pending = cookieNamed(res, 'kb_2fa');
    expect(pending).toBeDefined();
    return pending!;
  }

  it('enrols with a first code; the secret is never answered again', async () => {
    const user = await createUser(t, 'editor');
    const client = await login(t, user);
    await expect(client.get('/api/me/two-factor').expect(200)).resolves.toMatchObject({
      body: { totp: false, recoveryCodesLeft: 0, passkeys: [], required: false },
    });
    // A wrong first code is refused and leaves TOTP off.
    await client.post('/api/me/two-factor/totp').expect(200);
    const wrong = await client
      .post('/api/me/two-factor/totp/enable')
      .send({ code: '000000' })
      .expect(422);
    expect(wrong.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [expect.objectContaining({ field: 'code', code: 'invalid_code' })],
      }),
    );
    await enrol(client);
    const status = await client.get('/api/me/two-factor').expect(200);
    expect(status.body).toEqual({
      totp: true,
      recoveryCodesLeft: 10,
      passkeys: [],
      required: false,
    });
    expect(JSON.stringify(status.body)).not.toMatch(/secret/);
    // Setting up again while on: 409, and no new secret.
    const again = await client.post('/api/me/two-factor/totp').expect(409);
    expect(again.body).toEqual(problem(409, 'two_factor_enabled'));
    // Stored hashed: no recovery code appears in the table.
    const rows: { code_hash: string }[] = await t.dataSource.query(
      'SELECT code_hash FROM user_recovery_codes WHERE user_id = ?',
      [user.id],
    );
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.code_hash))).toBe(true);
  });

  it('signs in with the password and then a code; the session records how', async () => {
    const user = await createUser(t, 'editor');
    const { secret } = await enrol(await login(t, user));
    const pending = await pendingFor(user);
    // The pending step is no session: the API and the Account routes answer 401.
    const api = await t.http().get('/api/me').set('Cookie', pending).expect(401);
    expect(api.body).toEqual(problem(401, 'unauthenticated'));
    const res = await verify(pending, await codeAt(secret, 30)).expect(200);
    expect(res.body).toMatchObject({ id: user.id, username: user.username });
    const session = cookieNamed(res, 'kb_session');
    expect(session).toBeDefined();
    const sessions = await t.http().get('/api/me/sessions').set('Cookie', session!).expect(200);
    expect(sessions.body.items).toContainEqual(
      expect.objectContaining({ current: true, method: 'password+totp' }),
    );
    // The pending step was used up: a replay answers 401 and signs nobody in.
    const replay = await verify(pending, await codeAt(secret, 60)).expect(401);
    expect(replay.body).toEqual(problem(401, 'no_pending_sign_in'));
    expect(cookieNamed(replay, 'kb_session')).toBeUndefined();
  });

  it('refuses a code used once already (same time step)', async () => {
    const user = await createUser(t, 'editor');
    const { secret } = await enrol(await login(t, user));
    const code = await codeAt(secret, 30);
    await verify(await pendingFor(user), code).expect(200);
    const reused = await verify(await pendingFor(user), code).expect(401);
    expect(reused.body).toEqual(problem(401, 'invalid_code'));
  });

  it('counts wrong codes in the login throttle until the account is locked', async () => {
    const user = await createUser(t, 'editor');
    const { secret } = await enrol(await login(t, user));
    const pending = await pendingFor(user); // attempt 1 (the password)
    for (let i = 0; i < 3; i++) {
      const res = await verify(pending, '000000').expect(401); // attempts 2..4
      expect(res.body).toEqual(problem(401, 'invalid_code'));
    }
    // The limit (4) is reached: even the right code answers 429 now, and so does the password.
    const locked = await verify(pending, await codeAt(secret)).expect(429);
    expect(locked.body).toEqual(problem(429, 'login_throttled'));
    expect(locked.headers['retry-after']).toMatch(/^\d+$/);
    await password(user).expect(429);
    const rows: { n: number }[] = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?',
      [user.id],
    );
    expect(Number(rows[0].n)).toBe(1); // only the one made to enrol
  });

  it('signs in with a recovery code once; the same code again is refused', async () => {
    const user = await createUser(t, 'reader');
    const { recoveryCodes } = await enrol(await login(t, user));
    const res = await verify(await pendingFor(user), recoveryCodes[3].toUpperCase()).expect(200);
    const session = cookieNamed(res, 'kb_session')!;
    const sessions = await t.http().get('/api/me/sessions').set('Cookie', session).expect(200);
    expect(sessions.body.items).toContainEqual(
      expect.objectContaining({ current: true, method: 'password+recovery_code' }),
    );
    const status = await t.http().get('/api/me/two-factor').set('Cookie', session).expect(200);
    expect(status.body.recoveryCodesLeft).toBe(9);
    const reused = await verify(await pendingFor(user), recoveryCodes[3]).expect(401);
    expect(reused.body).toEqual(problem(401, 'invalid_code'));
  });

  it('finishes on another instance a sign-in that started on this one, once', async () => {
    const peer = await createPeerApp(t);
    try {
      const user = await createUser(t, 'editor');
      const { secret } = await enrol(await login(t, user));
      const pending = await pendingFor(user);
      const code = await codeAt(secret, 30);
      const there = await peer
        .http()
        .post('/auth/2fa/verify')
        .set('Cookie', pending)
        .send({ code })
        .expect(200);
      expect(there.body.id).toBe(user.id);
      // Back on the first instance, the same step is gone.
      const replay = await verify(pending, await codeAt(secret, 60)).expect(401);
      expect(replay.body).toEqual(problem(401, 'no_pending_sign_in'));
    } finally {
      await peer.close();
    }
  });

  it('refuses an expired pending step and an unknown one', async () => {
    const user = await createUser(t, 'editor');
    const { secret } = await enrol(await login(t, user));
    const pending = await pendingFor(user);
    await t
      .get(Database)
      .write((tx) =>
        tx.sql.run('UPDATE auth_challenges SET expires_at = ? WHERE user_id = ?', [
          new Date(Date.now() - 1000),
          user.id,
        ]),
      );
    const expired = await verify(pending, await codeAt(secret, 30)).expect(401);
    expect(expired.body).toEqual(problem(401, 'no_pending_sign_in'));
    const unknown = await verify('kb_2fa=forged', await codeAt(secret, 30)).expect(401);
    expect(unknown.body).toEqual(problem(401, 'no_pending_sign_in'));
    const none = await t.http().post('/auth/2fa/verify').send({ code: '123456' }).expect(401);
    expect(none.body).toEqual(problem(401, 'no_pending_sign_in'));
  });

  it('turns TOTP off with the password (a wrong one is refused), then signs in with it alone', async () => {
    const user = await createUser(t, 'editor');
    const client = await login(t, user);
    await enrol(client);
    const wrong = await client
      .post('/api/me/two-factor/totp/disable')
      .send({ password: 'not-it' })
      .expect(422);
    expect(wrong.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [expect.objectContaining({ field: 'password', code: 'wrong_password' })],
      }),
    );
    await client
      .post('/api/me/two-factor/totp/disable')
      .send({ password: user.password })
      .expect(204);
    await password(user).expect(200);
    const rows: { n: number }[] = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM user_recovery_codes WHERE user_id = ?',
      [user.id],
    );
    expect(Number(rows[0].n)).toBe(0);
  });

  it('lets an administrator reset a person’s factors; others may not', async () => {
    const admin = await login(t, await createUser(t, 'admin'));
    const user = await createUser(t, 'editor');
    const client = await login(t, user);
    await enrol(client);
    const listed = await admin.get(`/api/users/${user.id}`).expect(200);
    expect(listed.body.twoFactor).toEqual({ totp: true, passkeys: 0 });
    await client.post(`/api/users/${user.id}/two-factor/reset`).expect(403);
    await admin.post(`/api/users/${user.id}/two-factor/reset`).expect(204);
    expect((await admin.get(`/api/users/${user.id}`).expect(200)).body.twoFactor).toEqual({
      totp: false,
      passkeys: 0,
    });
    await password(user).expect(200);
    await admin
      .post('/api/users/00000000-0000-4000-8000-000000000000/two-factor/reset')
      .expect(404);
  });

  it('a token is unaffected by two-factor and cannot manage factors', async () => {
    const user = await createUser(t, 'editor');
    const client = await login(t, user);
    await enrol(client);
    const token = await client.withToken();
    await token.get('/api/me').expect(200);
    const res = await token
      .post('/api/me/two-factor/totp/disable')
      .send({ password: user.password });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(problem(401, 'session_required'));
  });
});

describe('auth: REQUIRE_2FA=admins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true', REQUIRE_2FA: 'admins' });
  });
  afterAll(() => t.close());

  it('sends an administrator without a factor to enrol; nothing else opens meanwhile', async () => {
    const admin = await createUser(t, 'admin');
    const first = await t
      .http()
      .post('/auth/login')
      .send({ username: admin.username, password: admin.password })
      .expect(401);
    expect(first.body).toEqual(
      problem(401, 'two_factor_enrolment_required', { methods: ['totp'] }),
    );
    const pending = cookieNamed(first, 'kb_2fa')!;
    expect(cookieNamed(first, 'kb_session')).toBeUndefined();
    // Bypass attempts with the pending step: the API, the Account routes, the code step.
    await t.http().get('/api/users').set('Cookie', pending).expect(401);
    await t
      .http()
      .post('/api/me/two-factor/totp')
      .set('Cookie', pending)
      .set('Sec-Fetch-Site', 'same-origin')
      .expect(401);
    const wrongStep = await t
      .http()
      .post('/auth/2fa/verify')
      .set('Cookie', pending)
      .send({ code: '123456' })
      .expect(401);
    expect(wrongStep.body).toEqual(problem(401, 'no_pending_sign_in'));
    // Enrolment signs in, with the recovery codes once.
    const setup = await t.http().post('/auth/2fa/enrol').set('Cookie', pending).expect(200);
    const done = await t
      .http()
      .post('/auth/2fa/enrol/enable')
      .set('Cookie', pending)
      .send({ code: await codeAt(setup.body.secret as string) })
      .expect(200);
    expect(done.body).toEqual({
      me: expect.objectContaining({ id: admin.id, role: 'admin' }),
      recoveryCodes: expect.arrayContaining([expect.stringMatching(/^\w{4}-\w{4}-\w{4}$/)]),
    });
    const session = cookieNamed(done, 'kb_session')!;
    await t.http().get('/api/users').set('Cookie', session).expect(200);
    // From now on, the password alone is not enough.
    const next = await t
      .http()
      .post('/auth/login')
      .send({ username: admin.username, password: admin.password })
      .expect(401);
    expect(next.body.code).toBe('second_factor_required');
  });

  it('a person with a factor cannot enrol a new one with only the password', async () => {
    const admin = await createUser(t, 'admin');
    const first = await t
      .http()
      .post('/auth/login')
      .send({ username: admin.username, password: admin.password })
      .expect(401);
    const pending = cookieNamed(first, 'kb_2fa')!;
    const setup = await t.http().post('/auth/2fa/enrol').set('Cookie', pending).expect(200);
    await t
      .http()
      .post('/auth/2fa/enrol/enable')
      .set('Cookie', pending)
      .send({ code: await codeAt(setup.body.secret as string) })
      .expect(200);
    // An attacker who knows the password: the pending step is a second-factor one now.
    const second = await t
      .http()
      .post('/auth/login')
      .send({ username: admin.username, password: admin.password })
      .expect(401);
    const attacker = cookieNamed(second, 'kb_2fa')!;
    const refused = await t.http().post('/auth/2fa/enrol').set('Cookie', attacker).expect(401);
    expect(refused.body).toEqual(problem(401, 'no_pending_sign_in'));
  });

  it('editors are not covered by REQUIRE_2FA=admins', async () => {
    const editor = await createUser(t, 'editor');
    await login(t, editor);
  });
});
