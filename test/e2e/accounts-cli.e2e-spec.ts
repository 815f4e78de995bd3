import { UsersService } from '../../src/auth/users.service';
import { runEntry } from '../support/kb-process';
import { createTestApp, TestApp } from '../support/test-app';
import { createGroup, createUser, login } from '../support/users';

/**
 * `npm run cli` for real: src/cli.ts runs as its own process on the test app's database
 * (SQLite file or MariaDB database), fed through stdin or a pseudo-terminal; the effects are
 * checked through the running app's HTTP API.
 */
describe('the account CLI', () => {
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES: '2' });
    env = {
      KB_DATA_DIR: t.dataDir,
      DB_TYPE: t.config.database.type,
      ...(t.config.database.url ? { DATABASE_URL: t.config.database.url } : {}),
      PASSWORD_HASH_COST: 'fast',
    };
    await createGroup(t, 'ops');
  });
  afterAll(() => t.close());

  const cli = (args: string[], input?: string) => runEntry('cli', env, args, { input });
  const signIn = (username: string, password: string) =>
    t.http().post('/auth/login').send({ username, password });
  const userNamed = (username: string) => t.get(UsersService).getByUsername(username);

  it('creates a user with the password from stdin, never from argv', async () => {
    const refused = await cli(
      ['user:create', '--username', 'bob', '--role', 'reader', '--password', 'on-the-command-line'],
      'whatever\n',
    );
    expect(refused.status).toBe(64);
    expect(refused.stderr).toContain('--password is not accepted');
    await expect(userNamed('bob')).rejects.toThrow();

    const created = await cli(
      ['user:create', '--username', 'Ada', '--role', 'editor', '--groups', 'ops'],
      'long-enough-pw\n',
    );
    expect({ status: created.status, stdout: created.stdout }).toEqual({
      status: 0,
      stdout: expect.stringMatching(/^created editor ada \([0-9a-f-]{36}\)\n$/),
    });
    // The audit line goes to stderr, away from the command's output.
    expect(created.stderr).toContain('"context":"audit"');
    expect(created.stderr).toContain('"event":"user.created"');
    const res = await signIn('ada', 'long-enough-pw').expect(200);
    expect(res.body).toMatchObject({ username: 'ada', role: 'editor', groups: ['ops'] });

    const noPassword = await cli(['user:create', '--username', 'eve', '--role', 'reader'], '');
    expect(noPassword.status).toBe(1);
    expect(noPassword.stderr).toContain('no password on stdin');
    const short = await cli(['user:create', '--username', 'eve', '--role', 'reader'], 'short\n');
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('"field":"password"');
    await expect(userNamed('eve')).rejects.toThrow();
  }, 180_000);

  it('sets a password typed at a prompt that does not echo it, ending the sessions', async () => {
    const session = await login(t, {
      id: '',
      username: 'ada',
      password: 'long-enough-pw',
      role: 'editor',
    });
    const typed = await runEntry('cli', env, ['user:set-password', '--username', 'ada'], {
      answers: [
        { prompt: 'Password: ', type: 'typed-at-a-prompt\r' },
        { prompt: 'Repeat it: ', type: 'typed-at-a-prompt\r' },
      ],
    });
    expect(typed.status).toBe(0);
    expect(typed.stdout).toContain('password changed for ada; their sessions were ended');
    expect(typed.stdout).not.toContain('typed-at-a-prompt');
    expect((await session.get('/api/me').expect(401)).body.code).toBe('session_expired');
    await signIn('ada', 'long-enough-pw').expect(401);
    await signIn('ada', 'typed-at-a-prompt').expect(200);
  }, 180_000);

  it('changes roles, disables and enables, unlocks and lists accounts', async () => {
    const role = await cli(['user:role', '--username', 'ada', '--role', 'admin']);
    expect({ status: role.status, stdout: role.stdout }).toEqual({
      status: 0,
      stdout: 'ada is now admin\n',
    });
    expect((await userNamed('ada')).role).toBe('admin');

    // The only active administrator cannot be disabled: appoint another first.
    const last = await cli(['user:disable', '--username', 'ada']);
    expect({ status: last.status, stderr: last.stderr }).toEqual({
      status: 1,
      stderr: expect.stringContaining('last_admin'),
    });
    await createUser(t, 'admin', { username: 'zed' });
    const disabled = await cli(['user:disable', '--username', 'ada']);
    expect(disabled.status).toBe(0);
    expect(disabled.stdout).toBe(
      'disabled ada; their sessions were ended and their tokens stop working\n',
    );
    await signIn('ada', 'typed-at-a-prompt').expect(401);
    expect((await cli(['user:enable', '--username', 'ada'])).status).toBe(0);
    await signIn('ada', 'typed-at-a-prompt').expect(200);

    // Two failed sign-ins lock the account (LOGIN_MAX_FAILURES=2), even for the right password.
    await signIn('ada', 'wrong-1').expect(401);
    await signIn('ada', 'wrong-2').expect(401);
    await signIn('ada', 'typed-at-a-prompt').expect(429);
    const unlocked = await cli(['user:unlock', '--username', 'ada']);
    expect(unlocked.status).toBe(0);
    expect(unlocked.stderr).toContain('"event":"user.unlocked"');
    await signIn('ada', 'typed-at-a-prompt').expect(200);

    const list = await cli(['user:list']);
    expect(list.stdout).toBe('ada\tadmin\tactive\tops\nzed\tadmin\tactive\t-\n');
    const unknown = await cli(['user:disable', '--username', 'nobody']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('user_not_found');
    const usage = await cli(['user:role', '--username', 'ada']);
    expect(usage.status).toBe(64);
    expect(usage.stderr).toContain('--role is required');
  }, 180_000);
});
