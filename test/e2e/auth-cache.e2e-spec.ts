import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, login, signedIn } from '../support/users';

/**
 * With the in-process credential cache on (production default: 5 s), changes made on this
 * instance must still take effect at once.
 */
describe('auth: credential cache', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_CACHE_SECONDS: '300' });
    admin = await signedIn(t, 'admin');
  });
  afterAll(() => t.close());

  it('forgets a revoked token at once', async () => {
    const editor = await signedIn(t, 'editor');
    const created = await editor.post('/api/tokens').send({ name: 'cached' }).expect(201);
    const bearer = new Client(t, { bearer: created.body.token });
    await bearer.get('/api/me').expect(200);
    await editor.delete(`/api/tokens/${created.body.id}`).expect(204);
    expect((await bearer.get('/api/me').expect(401)).body).toEqual(problem(401, 'invalid_token'));
  });

  it('forgets a logged-out session at once', async () => {
    const editor = await signedIn(t, 'editor');
    await editor.get('/api/me').expect(200);
    await editor.post('/auth/logout').expect(204);
    await editor.get('/api/me').expect(401);
  });

  it('applies disabling, role and group changes at once to sessions and tokens', async () => {
    await admin.post('/api/groups').send({ name: 'cachers' }).expect(201);
    const reader = await signedIn(t, 'reader');
    const bearer = await reader.withToken();
    for (const c of [reader, bearer]) await c.get('/api/me').expect(200);
    await admin
      .patch(`/api/users/${reader.user!.id}`)
      .send({ role: 'editor', groups: ['cachers'] })
      .expect(200);
    // The token keeps the scope it was made with (the reader role at the time).
    for (const [c, role] of [
      [reader, 'editor'],
      [bearer, 'reader'],
    ] as const) {
      const me = await c.get('/api/me').expect(200);
      expect(me.body).toEqual(expect.objectContaining({ role, groups: ['cachers'] }));
    }
    await admin.patch(`/api/users/${reader.user!.id}`).send({ disabled: true }).expect(200);
    for (const c of [reader, bearer]) await c.get('/api/me').expect(401);
    await admin.patch(`/api/users/${reader.user!.id}`).send({ disabled: false }).expect(200);
    await bearer.get('/api/me').expect(200);
    await reader.get('/api/me').expect(401); // disabling ended the session for good
    await login(t, reader.user!);
  });
});
