import { newPage } from '../support/pages';
import { problem } from '../support/problems';
import { createPeerApp, createTestApp, TestApp } from '../support/test-app';
import { Client, createUser, login, signedIn } from '../support/users';

/**
 * Two kb instances on one database (on MariaDB: the deployment behind a load balancer), both
 * with a long credential cache: a change made through one takes effect on the other at its
 * very next request, because every such change counts the credentials generation up.
 */
describe('auth across instances', () => {
  let one: TestApp;
  let two: TestApp;
  let admin: Client;

  beforeAll(async () => {
    one = await createTestApp({ AUTH_CACHE_SECONDS: '300' });
    two = await createPeerApp(one);
    admin = await signedIn(one, 'admin');
  });
  afterAll(async () => {
    await two.close();
    await one.close();
  });

  /** The same credentials sent to the other instance. */
  const onTwo = (client: Client) => new Client(two, client.auth, client.user);

  it('a token revoked through one instance fails on the other at the next request', async () => {
    const editor = await signedIn(one, 'editor');
    const created = await editor.post('/api/tokens').send({ name: 'shared' }).expect(201);
    const bearerOne = new Client(one, { bearer: created.body.token });
    const bearerTwo = onTwo(bearerOne);
    await bearerOne.get('/api/me').expect(200);
    await bearerTwo.get('/api/me').expect(200); // now cached on two as well
    await bearerTwo.get('/api/me').expect(200);
    await editor.delete(`/api/tokens/${created.body.id}`).expect(204);
    expect((await bearerTwo.get('/api/me').expect(401)).body).toEqual(
      problem(401, 'invalid_token'),
    );
    await bearerOne.get('/api/me').expect(401);
  });

  it('a session ended through one instance (sign-out, or an administrator) fails on the other', async () => {
    const editor = await signedIn(one, 'editor');
    await onTwo(editor).get('/api/me').expect(200);
    await editor.post('/auth/logout').expect(204);
    await onTwo(editor).get('/api/me').expect(401);

    const reader = await signedIn(one, 'reader');
    await onTwo(reader).get('/api/me').expect(200);
    await admin.delete(`/api/users/${reader.user!.id}/sessions`).expect(204);
    await onTwo(reader).get('/api/me').expect(401);
    await reader.get('/api/me').expect(401);
  });

  it('a role change and disabling through one instance apply on the other at once', async () => {
    const user = await createUser(one, 'reader');
    const session = onTwo(await login(one, user));
    const token = onTwo(await (await login(one, user)).withToken());
    for (const c of [session, token]) await c.get('/api/me').expect(200);
    await session.post('/api/pages').send(newPage('not-yet')).expect(403);

    await admin.patch(`/api/users/${user.id}`).send({ role: 'editor' }).expect(200);
    expect((await session.get('/api/me').expect(200)).body.role).toBe('editor');
    await session.post('/api/pages').send(newPage('now-allowed')).expect(201);

    await admin.patch(`/api/users/${user.id}`).send({ disabled: true }).expect(200);
    for (const c of [session, token]) await c.get('/api/me').expect(401);
  });

  it('keeps serving from the cache while nothing changed', async () => {
    const reader = await signedIn(one, 'reader');
    const bearer = onTwo(await reader.withToken());
    await bearer.get('/api/me').expect(200);
    // The token row is gone without a change being counted (as a restore of an old backup
    // would do): the cache still answers, which shows it was in use above.
    await two.dataSource.query('DELETE FROM access_tokens');
    await bearer.get('/api/me').expect(200);
  });
});
