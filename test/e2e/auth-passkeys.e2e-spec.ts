import { generate } from 'otplib';
import request from 'supertest';
import { problem } from '../support/problems';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createUser, login, TestUser } from '../support/users';

const PUBLIC_URL = 'https://wiki.example.test';

function cookieNamed(res: request.Response, name: string): string | undefined {
  const all = ([] as string[]).concat(
    (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [],
  );
  return all.map((c) => c.split(';')[0]).find((c) => c.startsWith(`${name}=`) && c !== `${name}=`);
}

/**
 * Passkeys through the API with a software authenticator (test/support/soft-authenticator.ts):
 * registration, password-less sign-in, the second step after a password, and the attacks: a
 * replayed challenge, a counter that goes back, someone else's passkey for a pending sign-in.
 */
describe('auth: passkeys (WebAuthn)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ KB_PUBLIC_URL: PUBLIC_URL, TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  async function registered(client: Client): Promise<SoftAuthenticator> {
    const key = new SoftAuthenticator('wiki.example.test', PUBLIC_URL);
    const options = await client.post('/api/me/passkeys/options').expect(200);
    expect(options.body).toMatchObject({
      rp: { id: 'wiki.example.test', name: 'kb' },
      authenticatorSelection: { residentKey: 'required' },
    });
    const added = await client
      .post('/api/me/passkeys')
      .send({ response: key.register(options.body), name: 'Laptop' })
      .expect(201);
    expect(added.body).toEqual({
      id: key.id,
      name: 'Laptop',
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    return key;
  }

  function options(cookie?: string) {
    const req = t.http().post('/auth/passkey/options');
    if (cookie) req.set('Cookie', cookie);
    return req.expect(200);
  }

  function verify(response: Record<string, unknown>, cookie?: string) {
    const req = t.http().post('/auth/passkey/verify');
    if (cookie) req.set('Cookie', cookie);
    return req.send({ response });
  }

  async function methodOf(session: string): Promise<string> {
    const list = await t.http().get('/api/me/sessions').set('Cookie', session).expect(200);
    return (list.body.items as { current: boolean; method: string }[]).find((s) => s.current)!
      .method;
  }

  it('registers a passkey and signs in with it alone; the same answer twice is refused', async () => {
    const user = await createUser(t, 'editor');
    const key = await registered(await login(t, user));
    const challenge = await options();
    expect(challenge.body).toMatchObject({ rpId: 'wiki.example.test', allowCredentials: [] });
    const answer = key.assert(challenge.body);
    const res = await verify(answer).expect(200);
    expect(res.body).toMatchObject({ id: user.id });
    expect(await methodOf(cookieNamed(res, 'kb_session')!)).toBe('passkey');
    const replay = await verify(answer).expect(401);
    expect(replay.body).toEqual(problem(401, 'passkey_challenge_expired'));
    expect(cookieNamed(replay, 'kb_session')).toBeUndefined();
  });

  it('refuses an answer whose signature counter went back (a cloned authenticator)', async () => {
    const user = await createUser(t, 'editor');
    const key = await registered(await login(t, user));
    await verify(key.assert((await options()).body, 5)).expect(200);
    const cloned = await verify(key.assert((await options()).body, 3)).expect(401);
    expect(cloned.body).toEqual(problem(401, 'passkey_invalid'));
  });

  it('asks for the passkey after the password, and accepts only that person’s', async () => {
    const owner = await createUser(t, 'editor');
    const key = await registered(await login(t, owner));
    const first = await t
      .http()
      .post('/auth/login')
      .send({ username: owner.username, password: owner.password })
      .expect(401);
    expect(first.body).toEqual(problem(401, 'second_factor_required', { methods: ['passkey'] }));
    const pending = cookieNamed(first, 'kb_2fa')!;
    const allowed = await options(pending);
    expect(allowed.body.allowCredentials).toEqual([
      expect.objectContaining({ id: key.id, type: 'public-key' }),
    ]);
    const res = await verify(key.assert(allowed.body), pending).expect(200);
    expect(await methodOf(cookieNamed(res, 'kb_session')!)).toBe('password+passkey');

    // Someone else's password is known; the attacker holds the owner's passkey.
    const victim: TestUser = await createUser(t, 'admin');
    const victimClient = await login(t, victim);
    const setup = await victimClient.post('/api/me/two-factor/totp').expect(200);
    await victimClient
      .post('/api/me/two-factor/totp/enable')
      .send({ code: await generate({ secret: setup.body.secret as string }) })
      .expect(200);
    const attack = await t
      .http()
      .post('/auth/login')
      .send({ username: victim.username, password: victim.password })
      .expect(401);
    const victimPending = cookieNamed(attack, 'kb_2fa')!;
    const refused = await verify(key.assert((await options(victimPending)).body), victimPending);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(problem(401, 'passkey_invalid'));
    expect(refused.body.detail).toBe('This passkey belongs to someone else.');
    expect(cookieNamed(refused, 'kb_session')).toBeUndefined();
  });

  it('lists and removes passkeys; an unknown one is 404; an answer for no challenge is 401', async () => {
    const user = await createUser(t, 'reader');
    const client = await login(t, user);
    const key = await registered(client);
    const status = await client.get('/api/me/two-factor').expect(200);
    expect(status.body.passkeys).toEqual([expect.objectContaining({ id: key.id, name: 'Laptop' })]);
    await client.delete(`/api/me/passkeys/${key.id}`).expect(204);
    const again = await client.delete(`/api/me/passkeys/${key.id}`).expect(404);
    expect(again.body).toEqual(problem(404, 'passkey_not_found'));
    const forged = await verify(key.assert({ challenge: 'never-issued' })).expect(401);
    expect(forged.body).toEqual(problem(401, 'passkey_challenge_expired'));
    // A removed passkey no longer signs in.
    const gone = await verify(key.assert((await options()).body)).expect(401);
    expect(gone.body).toEqual(problem(401, 'passkey_invalid'));
  });

  it('refuses a registration answered for another person’s challenge', async () => {
    const one = await login(t, await createUser(t, 'editor'));
    const other = await login(t, await createUser(t, 'editor'));
    const key = new SoftAuthenticator('wiki.example.test', PUBLIC_URL);
    const options = await one.post('/api/me/passkeys/options').expect(200);
    const res = await other
      .post('/api/me/passkeys')
      .send({ response: key.register(options.body) })
      .expect(401);
    expect(res.body).toEqual(problem(401, 'passkey_challenge_expired'));
  });
});
