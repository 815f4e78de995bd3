import { UserEntity } from '../../src/auth/entities/user.entity';
import { UsersService } from '../../src/auth/users.service';
import { problem, validationProblem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, createUser, login, signedIn } from '../support/users';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('auth: users and groups administration', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
  });
  afterAll(() => t.close());

  describe('POST /api/users', () => {
    it('creates a user (201): username stored lowercase, groups by name, no hash in the answer', async () => {
      await createGroup(t, 'ops');
      await createGroup(t, 'Eng');
      const res = await admin
        .post('/api/users')
        .send({
          username: 'Ada.Lovelace',
          password: 'correct horse battery',
          role: 'editor',
          groups: ['OPS', 'eng'],
          displayName: 'Ada',
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        username: 'ada.lovelace',
        displayName: 'Ada',
        role: 'editor',
        groups: ['eng', 'ops'],
        email: null,
        lastLoginAt: null,
        signIn: ['local'],
        locked: false,
        disabled: false,
        twoFactor: { totp: false, passkeys: 0 },
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect(res.headers.location).toBe(`/api/users/${res.body.id}`);
      const row = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ id: res.body.id });
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
      await login(t, {
        id: row.id,
        username: 'ada.lovelace',
        password: 'correct horse battery',
        role: 'editor',
      });
    });

    it('answers 409 username_taken for a name in use, whatever its case', async () => {
      await admin
        .post('/api/users')
        .send({ username: 'grace', password: 'long-enough-pw', role: 'reader' })
        .expect(201);
      const res = await admin
        .post('/api/users')
        .send({ username: 'GRACE', password: 'long-enough-pw', role: 'reader' })
        .expect(409);
      expect(res.body).toEqual({
        type: 'urn:kb:problem:username_taken',
        title: 'Conflict',
        status: 409,
        detail: 'The username "grace" is taken.',
        instance: '/api/users',
        code: 'username_taken',
        requestId: expect.any(String),
      });
    });

    it('answers 422 with one field problem per bad field', async () => {
      const res = await admin
        .post('/api/users')
        .send({ username: '-x', password: 'short', role: 'owner', extra: true })
        .expect(422);
      expect(res.body).toEqual({
        type: 'urn:kb:problem:validation_failed',
        title: 'Unprocessable Content',
        status: 422,
        detail: 'Some fields are invalid.',
        instance: '/api/users',
        code: 'validation_failed',
        requestId: expect.any(String),
        errors: [
          { field: 'extra', code: 'unknown_field', message: 'property extra should not exist' },
          {
            field: 'username',
            code: 'matches',
            message:
              'username must be 2-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
          },
          {
            field: 'password',
            code: 'is_length',
            message: 'password must be longer than or equal to 8 characters',
          },
          {
            field: 'role',
            code: 'is_in',
            message: 'role must be one of the following values: reader, editor, admin',
          },
        ],
      });
      // A member of the wrong JSON type is malformed: 400 naming only the type violations.
      const wrongType = await admin
        .post('/api/users')
        .send({ username: '-x', password: 'short', role: 'owner', groups: 'ops', extra: true })
        .expect(400);
      expect(wrongType.body).toEqual(
        problem(400, 'invalid_type', {
          errors: [{ field: 'groups', code: 'is_array', message: 'groups must be an array' }],
        }),
      );
    });

    it('answers 422 unknown_group naming each unknown group by its index', async () => {
      await createGroup(t, 'ops');
      const res = await admin
        .post('/api/users')
        .send({
          username: 'linus',
          password: 'long-enough-pw',
          role: 'reader',
          groups: ['nope', 'ops', 'missing'],
        })
        .expect(422);
      expect(res.body).toEqual(
        validationProblem(
          { field: 'groups[0]', code: 'unknown_group', message: 'No group named "nope".' },
          { field: 'groups[2]', code: 'unknown_group', message: 'No group named "missing".' },
        ),
      );
      expect(await t.dataSource.getRepository(UserEntity).countBy({ username: 'linus' })).toBe(0);
    });
  });

  describe('GET /api/users, GET /api/users/:id', () => {
    it('lists users by username, paged', async () => {
      for (const username of ['carol', 'alice', 'bob']) {
        await admin
          .post('/api/users')
          .send({ username, password: 'long-enough-pw', role: 'reader' })
          .expect(201);
      }
      const first = await admin.get('/api/users?limit=2').expect(200);
      expect(first.body.items.map((u: { username: string }) => u.username)).toEqual([
        admin.user!.username,
        'alice',
      ]);
      const second = await admin
        .get(`/api/users?limit=2&cursor=${first.body.nextCursor}`)
        .expect(200);
      expect(second.body.items.map((u: { username: string }) => u.username)).toEqual([
        'bob',
        'carol',
      ]);
      expect(second.body.nextCursor).toBeNull();
      expect(second.body.items[0]).toEqual({
        id: expect.stringMatching(UUID),
        username: 'bob',
        displayName: 'bob',
        role: 'reader',
        groups: [],
        email: null,
        lastLoginAt: null,
        signIn: ['local'],
        locked: false,
        disabled: false,
        twoFactor: { totp: false, passkeys: 0 },
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
    });

    it('reads one user; an unknown or malformed id is 404', async () => {
      const user = await createUser(t, 'reader');
      const res = await admin.get(`/api/users/${user.id}`).expect(200);
      expect(res.body).toEqual(
        expect.objectContaining({ id: user.id, username: user.username, role: 'reader' }),
      );
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const missing = await admin.get(`/api/users/${id}`).expect(404);
        expect(missing.body).toEqual(problem(404, 'user_not_found'));
      }
    });
  });

  describe('PATCH /api/users/:id', () => {
    it('changes role, groups, display name and disabled flag', async () => {
      await createGroup(t, 'ops');
      await createGroup(t, 'eng');
      const user = await createUser(t, 'reader', { groups: ['ops'] });
      const res = await admin
        .patch(`/api/users/${user.id}`)
        .send({ role: 'editor', groups: ['eng'], displayName: 'Renamed', disabled: true })
        .expect(200);
      expect(res.body).toEqual(
        expect.objectContaining({
          id: user.id,
          role: 'editor',
          groups: ['eng'],
          displayName: 'Renamed',
          disabled: true,
        }),
      );
      const again = await admin.get(`/api/users/${user.id}`).expect(200);
      expect(again.body).toEqual(res.body);
      await t
        .http()
        .post('/auth/login')
        .send({ username: user.username, password: user.password })
        .expect(401);
      await admin.patch(`/api/users/${user.id}`).send({ disabled: false, groups: [] }).expect(200);
      const signed = await login(t, user);
      const me = await signed.get('/api/me').expect(200);
      expect(me.body).toEqual(expect.objectContaining({ role: 'editor', groups: [] }));
    });

    it('sets a new password: the old one stops working', async () => {
      const user = await createUser(t, 'reader');
      await admin.patch(`/api/users/${user.id}`).send({ password: 'the-new-password' }).expect(200);
      await t
        .http()
        .post('/auth/login')
        .send({ username: user.username, password: user.password })
        .expect(401);
      await login(t, { ...user, password: 'the-new-password' });
    });

    it('applies a role change to the live session at once', async () => {
      const user = await createUser(t, 'reader');
      const session = await login(t, user);
      await session.get('/api/users').expect(403);
      await admin.patch(`/api/users/${user.id}`).send({ role: 'admin' }).expect(200);
      await session.get('/api/users').expect(200);
    });

    it('protects the last active administrator', async () => {
      const id = admin.user!.id;
      for (const body of [{ role: 'editor' }, { disabled: true }]) {
        const res = await admin.patch(`/api/users/${id}`).send(body).expect(409);
        expect(res.body).toEqual(problem(409, 'last_admin'));
      }
      // A disabled administrator does not count: demoting one is allowed.
      const dormant = await createUser(t, 'admin');
      await admin.patch(`/api/users/${dormant.id}`).send({ disabled: true }).expect(200);
      await admin.patch(`/api/users/${dormant.id}`).send({ role: 'reader' }).expect(200);
      // With a second active administrator the first may step down, but not disable itself.
      const second = await createUser(t, 'admin');
      const self = await admin.patch(`/api/users/${id}`).send({ disabled: true }).expect(409);
      expect(self.body).toEqual(problem(409, 'cannot_disable_self'));
      await admin.patch(`/api/users/${id}`).send({ role: 'editor' }).expect(200);
      const secondAdmin = await login(t, second);
      const last = await secondAdmin
        .patch(`/api/users/${second.id}`)
        .send({ role: 'reader' })
        .expect(409);
      expect(last.body).toEqual(problem(409, 'last_admin'));
    });

    it('keeps one administrator when the last two demote each other at the same moment', async () => {
      const other = await createUser(t, 'admin');
      const users = t.get(UsersService);
      const results = await Promise.allSettled([
        users.update(admin.user!.id, { role: 'editor' }, other.id),
        users.update(other.id, { role: 'editor' }, admin.user!.id),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((rejected.reason as { code: string }).code).toBe('last_admin');
      expect(
        await t.dataSource.getRepository(UserEntity).countBy({ role: 'admin', disabled: false }),
      ).toBe(1);
    });

    it('answers 422 for bad values and 404 for an unknown user', async () => {
      const user = await createUser(t, 'reader');
      const res = await admin
        .patch(`/api/users/${user.id}`)
        .send({ role: 'root', password: 'short' })
        .expect(422);
      expect(res.body).toEqual(
        validationProblem(
          {
            field: 'role',
            code: 'is_in',
            message: 'role must be one of the following values: reader, editor, admin',
          },
          {
            field: 'password',
            code: 'is_length',
            message: 'password must be longer than or equal to 8 characters',
          },
        ),
      );
      expect(
        (
          await admin
            .patch(`/api/users/${user.id}`)
            .send({ role: 'root', disabled: 'yes', password: 'short' })
            .expect(400)
        ).body,
      ).toEqual(
        problem(400, 'invalid_type', {
          errors: [
            { field: 'disabled', code: 'is_boolean', message: 'disabled must be a boolean value' },
          ],
        }),
      );
      const unknownGroup = await admin
        .patch(`/api/users/${user.id}`)
        .send({ groups: ['ghosts'] })
        .expect(422);
      expect(unknownGroup.body).toEqual(
        validationProblem({
          field: 'groups[0]',
          code: 'unknown_group',
          message: 'No group named "ghosts".',
        }),
      );
      const missing = await admin
        .patch('/api/users/00000000-0000-4000-8000-000000000000')
        .send({ role: 'reader' })
        .expect(404);
      expect(missing.body).toEqual(problem(404, 'user_not_found'));
    });
  });

  describe('groups', () => {
    it('creates groups (201, lowercase), refuses duplicates (409) and bad names (422)', async () => {
      const res = await admin.post('/api/groups').send({ name: 'Support' }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'support',
        createdAt: expect.stringMatching(ISO),
      });
      const dup = await admin.post('/api/groups').send({ name: 'SUPPORT' }).expect(409);
      expect(dup.body).toEqual(problem(409, 'group_exists'));
      const bad = await admin.post('/api/groups').send({ name: 'has space' }).expect(422);
      expect(bad.body).toEqual(
        validationProblem({
          field: 'name',
          code: 'matches',
          message:
            'name must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
        }),
      );
    });

    it('lists every group to admins and only their own to everyone else', async () => {
      for (const name of ['ops', 'eng', 'hr']) await createGroup(t, name);
      const all = await admin.get('/api/groups').expect(200);
      expect(all.body).toEqual({
        items: ['eng', 'hr', 'ops'].map((name) => ({
          id: expect.stringMatching(UUID),
          name,
          createdAt: expect.stringMatching(ISO),
        })),
        nextCursor: null,
      });
      const editor = await signedIn(t, 'editor', { groups: ['ops', 'hr'] });
      const own = await editor.get('/api/groups').expect(200);
      expect(own.body.items.map((g: { name: string }) => g.name)).toEqual(['hr', 'ops']);
      const reader = await signedIn(t, 'reader');
      await reader.get('/api/groups').expect(200, { items: [], nextCursor: null });
      const bearer = await editor.withToken();
      const viaToken = await bearer.get('/api/groups').expect(200);
      expect(viaToken.body).toEqual(own.body);
    });
  });

  describe('bootstrap administrator', () => {
    it('is created from KB_ADMIN_USERNAME/KB_ADMIN_PASSWORD when no active administrator exists, once', async () => {
      await t.reset();
      const users = t.get(UsersService);
      await createUser(t, 'editor'); // e.g. made with the CLI before the first start
      await users.ensureBootstrapAdmin();
      await users.ensureBootstrapAdmin();
      const admins = await t.dataSource.getRepository(UserEntity).findBy({ role: 'admin' });
      expect(admins.map((u) => u.username)).toEqual(['bootstrap']);
      const session = await login(t, {
        id: admins[0].id,
        username: 'bootstrap',
        password: 'bootstrap-password',
        role: 'admin',
      });
      await session.get('/api/users').expect(200);
    });

    it('is not created while an active administrator exists', async () => {
      await t.get(UsersService).ensureBootstrapAdmin();
      expect(await t.dataSource.getRepository(UserEntity).countBy({ username: 'bootstrap' })).toBe(
        0,
      );
    });
  });

  describe('permissions', () => {
    const adminRoutes: [string, string, Record<string, unknown>?][] = [
      ['post', '/api/users', { username: 'someone', password: 'long-enough-pw', role: 'reader' }],
      ['get', '/api/users'],
      ['get', '/api/users/00000000-0000-4000-8000-000000000000'],
      ['patch', '/api/users/00000000-0000-4000-8000-000000000000', { role: 'admin' }],
      ['post', '/api/groups', { name: 'sneaky' }],
    ];

    it('answers 403 insufficient_role to editors and readers, with a session or a token', async () => {
      for (const role of ['editor', 'reader'] as const) {
        const client = await signedIn(t, role);
        const bearer = await client.withToken();
        for (const c of [client, bearer]) {
          for (const [method, path, body] of adminRoutes) {
            const res = await c.request(method as 'get', path).send(body);
            expect({ path, status: res.status, body: res.body }).toEqual({
              path,
              status: 403,
              body: problem(403, 'insufficient_role'),
            });
          }
        }
      }
      expect(await t.dataSource.getRepository(UserEntity).countBy({ username: 'someone' })).toBe(0);
    });

    it('answers 401 to anonymous callers on every user and group route', async () => {
      for (const [method, path, body] of [
        ...adminRoutes,
        ['get', '/api/groups'] as [string, string],
      ]) {
        const res = await anonymous(t)
          .request(method as 'get', path)
          .send(body);
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 401,
          body: problem(401, 'unauthenticated'),
        });
      }
    });
  });
});
