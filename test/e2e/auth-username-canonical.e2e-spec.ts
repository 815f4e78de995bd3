import { LoginThrottleEntity } from '../../src/auth/entities/login-throttle.entity';
import { SessionEntity } from '../../src/auth/entities/session.entity';
import { UserEntity } from '../../src/auth/entities/user.entity';
import { UsernameKey1763802310000 } from '../../src/common/database/migrations/1763802310000-UsernameKey';
import { fieldErrors, problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

/**
 * The MariaDB lockout bypass (issue 9, item 2): usernames and throttle keys compared in an
 * accent-, width- and case-insensitive collation while kb compared throttle keys exactly, so
 * other spellings of a locked account's name signed in to it and were never counted. Every
 * spelling must now count against the one lock (or name nobody), none may sign in while it
 * holds, and no second account may differ only by case, width or invisible characters.
 */
describe('auth: one canonical form per username (lockout bypass)', () => {
  let t: TestApp;
  let admin: Client;
  let next = 0;
  const address = () => `10.77.${Math.floor(++next / 250)}.${next % 250}`;

  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: 'true',
      LOGIN_MAX_FAILURES: '3',
      LOGIN_IP_MAX_FAILURES: '1000',
      LOGIN_WINDOW_SECONDS: '600',
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
  });

  const login = (username: string, password: string) =>
    t.http().post('/auth/login').set('X-Forwarded-For', address()).send({ username, password });

  async function createReader(username = 'reader2', password = 'reader2-password') {
    const res = await admin
      .post('/api/users')
      .send({ username, password, role: 'reader' })
      .expect(201);
    return { id: res.body.id as string, password };
  }

  const sessionsOf = (userId: string) =>
    t.dataSource.getRepository(SessionEntity).countBy({ userId });
  const failuresOf = async (key: string) =>
    (await t.dataSource.getRepository(LoginThrottleEntity).findOneBy({ key }))?.failures ?? 0;

  const SAME_ACCOUNT = [
    'READER2',
    'ｒｅａｄｅｒ２',
    'reader\u200b2',
    '\ufeffReader\u200d2',
    'ＲＥＡＤＥＲ２',
  ];

  it('keeps every spelling of a locked account locked; réader2 is nobody and signs in to nothing', async () => {
    const reader = await createReader();
    for (let i = 0; i < 3; i += 1) await login('reader2', 'wrong-password').expect(401);
    expect(await failuresOf('user:reader2')).toBe(3);

    for (const spelling of ['reader2', ...SAME_ACCOUNT]) {
      const res = await login(spelling, reader.password);
      expect({ spelling, status: res.status }).toEqual({ spelling, status: 429 });
      expect(res.body).toEqual(problem(429, 'login_throttled'));
    }
    // An accent makes another name: no account has it, so it signs in to nothing; its
    // failures count under its own name (and lock it), never lifting reader2's lock.
    for (let i = 0; i < 3; i += 1) {
      const res = await login('réader2', reader.password);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(problem(401, 'invalid_credentials'));
    }
    expect(await failuresOf('user:réader2')).toBe(3);
    await login('réader2', reader.password).expect(429);
    expect(await sessionsOf(reader.id)).toBe(0);
    // The lock did not move: the other spellings were refused without resetting or lifting it.
    expect(await failuresOf('user:reader2')).toBeGreaterThanOrEqual(3);
  });

  it('counts failures under every spelling against the one account', async () => {
    const reader = await createReader();
    await login('READER2', 'wrong-password').expect(401);
    await login('ｒｅａｄｅｒ２', 'wrong-password').expect(401);
    await login('reader\u200b2', 'wrong-password').expect(401);
    expect(await failuresOf('user:reader2')).toBe(3);
    await login('reader2', reader.password).expect(429);
    expect(await sessionsOf(reader.id)).toBe(0);

    // An administrator's unlock lifts it for every spelling; the account answers as stored.
    await admin.post(`/api/users/${reader.id}/unlock`).expect(204);
    const res = await login('ｒｅａｄｅｒ２', reader.password).expect(200);
    expect(res.body).toMatchObject({ id: reader.id, username: 'reader2' });
  });

  it('refuses a second account that differs only by case, width or invisible characters (409)', async () => {
    await createReader();
    for (const username of SAME_ACCOUNT) {
      const res = await admin
        .post('/api/users')
        .send({ username, password: 'another-password', role: 'admin' });
      expect({ username, status: res.status }).toEqual({ username, status: 409 });
      expect(res.body).toEqual(problem(409, 'username_taken'));
    }
    const rows = await t.dataSource.getRepository(UserEntity).find();
    expect(rows.filter((u) => u.role === 'reader').map((u) => [u.username, u.usernameKey])).toEqual(
      [['reader2', 'reader2']],
    );
  });

  it('stores a new account in canonical form and signs it in by any spelling', async () => {
    const res = await admin
      .post('/api/users')
      .send({ username: 'Ｎｅｗ.\u200bUser', password: 'new-user-password', role: 'editor' })
      .expect(201);
    expect(res.body).toMatchObject({ username: 'new.user', displayName: 'new.user' });
    const row = await t.dataSource.getRepository(UserEntity).findOneByOrFail({ id: res.body.id });
    expect([row.username, row.usernameKey]).toEqual(['new.user', 'new.user']);
    await login('NEW.USER', 'new-user-password').expect(200);
  });

  it('refuses controls in a username with a field problem, at sign-in and on create', async () => {
    await createReader();
    const signIn = await login('reader\u00002', 'reader2-password').expect(422);
    expect(signIn.body).toEqual(fieldErrors({ field: 'username', code: 'invalid_characters' }));
    for (const username of ['reader\u00073', 'reader\u20283', 'réader3']) {
      const res = await admin
        .post('/api/users')
        .send({ username, password: 'another-password', role: 'reader' })
        .expect(422);
      expect(res.body).toEqual(
        fieldErrors({
          field: 'username',
          code: username === 'réader3' ? 'matches' : 'invalid_characters',
        }),
      );
    }
    expect(await t.dataSource.getRepository(UserEntity).countBy({ role: 'reader' })).toBe(1);
  });

  it('gives existing accounts their keys in the migration; a canonical clash keeps one, the others cannot sign in by name', async () => {
    const migration = new UsernameKey1763802310000();
    const runner = t.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      // Legacy rows as an older kb (or a hand edit) could have left them: a mixed-case name,
      // and two names with one canonical form that MariaDB's collation still tells apart.
      const insert = async (id: string, username: string, createdAt: string) =>
        runner.query(
          'INSERT INTO users (id, username, display_name, password_hash, role, disabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [id, username, username, 'x', 'reader', 0, createdAt, createdAt],
        );
      await insert('00000000-0000-4000-8000-000000000001', '𝐝𝐮𝐩.user', '2026-01-01 00:00:00');
      await insert('00000000-0000-4000-8000-000000000002', 'dup.user', '2026-02-01 00:00:00');
      await insert('00000000-0000-4000-8000-000000000003', 'Legacy.Name', '2026-03-01 00:00:00');
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const keys = Object.fromEntries(
      (await t.dataSource.getRepository(UserEntity).find()).map((u) => [u.username, u.usernameKey]),
    );
    expect(keys).toMatchObject({
      'dup.user': 'dup.user',
      '𝐝𝐮𝐩.user': '#00000000-0000-4000-8000-000000000001',
      'Legacy.Name': 'legacy.name',
    });
    // Every account has a key, and every admin-made account kept its own.
    expect(Object.values(keys).every((k) => typeof k === 'string' && k.length > 0)).toBe(true);
    // A '#' never reaches the account that lost the clash.
    const res = await login('#00000000-0000-4000-8000-000000000001', 'x').expect(401);
    expect(res.body).toEqual(problem(401, 'invalid_credentials'));
    // A user key column that folds case or accents would make these one row; it must not.
    const repo = t.dataSource.getRepository(LoginThrottleEntity);
    await repo.insert([
      { key: 'user:reader9', failures: 1, windowStart: new Date() },
      { key: 'user:réader9', failures: 2, windowStart: new Date() },
      { key: 'user:READER9', failures: 3, windowStart: new Date() },
    ]);
    expect((await repo.findOneByOrFail({ key: 'user:reader9' })).failures).toBe(1);
  });
});
