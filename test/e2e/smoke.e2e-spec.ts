import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, signedIn } from '../support/users';
import { problem } from '../support/problems';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz', async () => {
    await t.http().get('/healthz').expect(200, { status: 'ok' });
    await t.http().get('/readyz').expect(200, { status: 'ready', database: 'up' });
  });

  it('signs in and reads /api/me', async () => {
    const admin = await signedIn(t, 'admin');
    const res = await admin.get('/api/me').expect(200);
    expect(res.body).toEqual({
      id: admin.user!.id,
      username: admin.user!.username,
      displayName: admin.user!.username,
      role: 'admin',
      groups: [],
    });
    await anonymous(t)
      .get('/api/me')
      .expect(401)
      .expect((r) => expect(r.body).toEqual(problem(401, 'unauthenticated')));
  });
});
