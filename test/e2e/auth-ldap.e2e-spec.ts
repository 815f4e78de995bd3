import { generate } from 'otplib';
import { captureLogs, LogCapture } from '../support/log-capture';
import {
  LDAP_BASE,
  LDAP_GROUPS,
  SERVICE_DN,
  SERVICE_PASSWORD,
  startLdapServer,
  TestLdapServer,
} from '../support/ldap-server';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, createUser, login, signedIn } from '../support/users';

/**
 * LDAP / Active Directory sign-in through POST /auth/login against a real directory (a private
 * slapd, test/support/ldap-server.ts): provisioning, mappings re-applied at every sign-in, the
 * refused answers (wrong password, filter injection), the directory down while local accounts
 * still sign in, LOCAL_LOGIN=off, linking by email, LDAPS and StartTLS with LDAP_CA_FILE.
 */
const PEOPLE = [
  {
    uid: 'ada',
    password: 'ada-dir-pw',
    displayName: 'Ada Lovelace',
    mail: 'ada@example.org',
    groups: ['editors', 'eng'],
  },
  {
    uid: 'grace',
    password: 'grace-dir-pw',
    displayName: 'Grace Hopper',
    mail: 'grace@example.org',
    groups: ['readers'],
  },
  {
    uid: 'linus',
    password: 'linus-dir-pw',
    displayName: 'Linus T',
    mail: 'linus@example.org',
    groups: ['eng'],
  },
  {
    uid: 'dora',
    password: 'dora-dir-pw',
    displayName: 'Dora D',
    mail: 'dora@example.org',
    groups: [],
  },
  { uid: 'taken', password: 'taken-dir-pw', displayName: 'Taken Name', groups: [] },
  {
    uid: 'carol',
    password: 'carol-dir-pw',
    displayName: 'Carol C',
    mail: 'Carol@Example.org',
    groups: ['eng'],
  },
  { uid: 'otto', password: 'otto-dir-pw', displayName: 'Otto T', groups: ['eng'] },
  { uid: 'ivy', password: 'ivy-dir-pw', displayName: 'Ivy I', mail: 'Ivy@example.org', groups: [] },
  { uid: 'tls', password: 'tls-dir-pw', displayName: 'T L S', mail: 'tls@example.org', groups: [] },
];

/** What every app of this spec is started with (the directory's plain address on loopback). */
function ldapEnv(server: TestLdapServer): Record<string, string> {
  return {
    LOG_LEVEL: 'info',
    LDAP_URL: server.url,
    LDAP_BIND_DN: SERVICE_DN,
    LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
    LDAP_SEARCH_BASE: LDAP_BASE,
    LDAP_USER_FILTER: '(&(objectClass=inetOrgPerson)(uid={username}))',
    // Group DNs (any spacing or case) and names, separated by ";" since DNs hold commas.
    LDAP_ROLE_MAP: `CN=Admins, ${LDAP_GROUPS}=admin;editors=editor;readers=reader`,
    LDAP_GROUP_MAP: `eng=engineering;cn=ops,${LDAP_GROUPS}=ops`,
    LOGIN_MAX_FAILURES: '50',
    LOGIN_IP_MAX_FAILURES: '100000',
  };
}

describe('LDAP / Active Directory sign-in', () => {
  let server: TestLdapServer;
  let t: TestApp;
  let logs: LogCapture;
  let admin: Client;

  beforeAll(async () => {
    server = await startLdapServer(PEOPLE, ['admins', 'ops']);
    logs = captureLogs();
    t = await createTestApp(ldapEnv(server));
    admin = await signedIn(t, 'admin');
  });
  afterAll(async () => {
    logs?.stop();
    await t?.close();
    await server?.close();
  });

  function signIn(username: string, password: string) {
    return t.http().post('/auth/login').send({ username, password });
  }

  function sessionOf(res: { headers: Record<string, unknown> }): Client {
    const cookie = ([] as string[])
      .concat((res.headers['set-cookie'] as string[]) ?? [])
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('kb_session='));
    if (!cookie) throw new Error('no session cookie');
    return new Client(t, { cookie });
  }

  async function countSessions(): Promise<number> {
    const [row] = await t.dataSource.query('SELECT COUNT(*) AS n FROM sessions');
    return Number(row.n);
  }

  async function userRow(username: string) {
    const [row] = await t.dataSource.query(
      'SELECT id, role, email, password_hash FROM users WHERE username = ?',
      [username],
    );
    return row as { id: string; role: string; email: string | null; password_hash: string };
  }

  /** A refused sign-in: the problem, no cookie, no new session. */
  async function expectRefused(
    res: { status: number; body: unknown; headers: Record<string, unknown> },
    before: number,
    status: number,
    code: string,
  ) {
    expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
    expect(res.body).toEqual(
      problem(status, code, code === 'ldap_unavailable' ? { retryAfter: 30 } : {}),
    );
    expect(res.status).toBe(status);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await countSessions()).toBe(before);
  }

  it('signs a directory person in with the console’s username and password, provisioning them', async () => {
    const res = await signIn('ada', 'ada-dir-pw').expect(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      username: 'ada',
      displayName: 'Ada Lovelace',
      role: 'editor',
      groups: ['engineering'],
    });
    const row = await userRow('ada');
    expect(row).toMatchObject({ id: res.body.id, role: 'editor', email: 'ada@example.org' });
    // No usable password of kb's own: the directory decides.
    expect(row.password_hash).toBe('!sso');
    const [identity] = await t.dataSource.query(
      'SELECT provider, subject FROM sso_identities WHERE user_id = ?',
      [row.id],
    );
    // The entry's entryUUID, not its DN or name: it survives a rename.
    expect(identity).toEqual({
      provider: 'ldap',
      subject: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });

    const ada = sessionOf(res);
    const sessions = await ada.get('/api/me/sessions').expect(200);
    expect(sessions.body.items).toEqual([
      expect.objectContaining({ current: true, method: 'ldap' }),
    ]);
    const listed = await admin.get('/api/users?q=ada').expect(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ username: 'ada', signIn: ['ldap'] }),
    ]);
    const local = await admin.get(`/api/users/${admin.user!.id}`).expect(200);
    expect(local.body.signIn).toEqual(['local']);

    const lines = logs.lines();
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'sso.user.provisioned',
        provider: 'ldap',
        username: 'ada',
        role: 'editor',
        groups: ['engineering'],
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'auth.login.succeeded', username: 'ada', method: 'ldap' }),
    );
    // Nothing secret in any line: neither the person's password nor the service account's.
    const text = JSON.stringify(lines);
    expect(text).not.toContain('ada-dir-pw');
    expect(text).not.toContain(SERVICE_PASSWORD);
  });

  it('re-applies the mappings at every sign-in: a group changed in the directory changes role and groups', async () => {
    const first = await signIn('linus', 'linus-dir-pw').expect(200);
    expect(first.body).toMatchObject({ role: 'reader', groups: ['engineering'] });

    await server.setGroups('linus', ['admins', 'ops']);
    const second = await signIn('linus', 'linus-dir-pw').expect(200);
    expect(second.body).toMatchObject({ id: first.body.id, role: 'admin', groups: ['ops'] });
    expect((await userRow('linus')).role).toBe('admin');
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        event: 'sso.mapping.applied',
        provider: 'ldap',
        target: `user:${first.body.id}`,
        role: 'admin',
        previousRole: 'reader',
        groupsAdded: ['ops'],
        groupsRemoved: ['engineering'],
      }),
    );

    await server.setGroups('linus', ['readers']);
    const third = await signIn('linus', 'linus-dir-pw').expect(200);
    expect(third.body).toMatchObject({ role: 'reader', groups: [] });
  });

  it('refuses a wrong password, and an unknown name, as a wrong local password is refused', async () => {
    const before = await countSessions();
    await expectRefused(
      await signIn('grace', 'not-her-password'),
      before,
      401,
      'invalid_credentials',
    );
    await expectRefused(
      await signIn('nobody-here', 'whatever'),
      before,
      401,
      'invalid_credentials',
    );
    expect(await userRow('grace')).toBeUndefined();
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        event: 'auth.login.failed',
        target: 'username:grace',
        ldap: 'wrong_password',
      }),
    );
  });

  it('escapes the username in the filter: "*)(uid=*" is a value that finds nobody', async () => {
    const before = await countSessions();
    // With every password of the directory: an injected filter matching anyone would let one in.
    for (const { password } of PEOPLE) {
      for (const username of ['*)(uid=*', '*', 'ada)(|(uid=*', '*)(objectClass=*']) {
        await expectRefused(await signIn(username, password), before, 401, 'invalid_credentials');
      }
    }
    const failed = logs
      .lines()
      .filter((l) => l.event === 'auth.login.failed' && l.target === 'username:*)(uid=*');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((l) => l.ldap === 'not_found')).toBe(true);
  });

  it('counts directory failures in the login throttle', async () => {
    await t.restart({ LOGIN_MAX_FAILURES: '3' });
    try {
      for (let i = 0; i < 3; i++) {
        await signIn('dora', 'wrong').expect(401);
      }
      const res = await signIn('dora', 'dora-dir-pw').expect(429);
      expect(res.body).toEqual(problem(429, 'login_throttled'));
      expect(await userRow('dora')).toBeUndefined();
    } finally {
      await t.restart(ldapEnv(server));
      admin = await login(t, admin.user!);
    }
  });

  it('answers 503 with Retry-After while the directory is down, and local accounts still sign in', async () => {
    const breakGlass = await createUser(t, 'admin');
    await server.stop();
    try {
      const before = await countSessions();
      const res = await signIn('grace', 'grace-dir-pw');
      await expectRefused(res, before, 503, 'ldap_unavailable');
      expect(res.body).toEqual(problem(503, 'ldap_unavailable', { retryAfter: 30 }));
      expect(res.headers['retry-after']).toBe('30');
      // A local password is tried first: the directory is not even asked.
      const local = await signIn(breakGlass.username, breakGlass.password).expect(200);
      const sessions = await sessionOf(local).get('/api/me/sessions').expect(200);
      expect(sessions.body.items[0]).toMatchObject({ method: 'password' });
    } finally {
      await server.start();
    }
    await signIn('grace', 'grace-dir-pw').expect(200);
  });

  it('refuses a directory person whose name belongs to a local account', async () => {
    const local = await createUser(t, 'editor', { username: 'taken' });
    const before = await countSessions();
    await expectRefused(await signIn('taken', 'taken-dir-pw'), before, 409, 'sso_username_taken');
    // The local account keeps its own password.
    await signIn('taken', local.password).expect(200);
  });

  it('joins a local account of the same email only when SSO_LINK_BY_EMAIL is on', async () => {
    const local = await createUser(t, 'editor', { username: 'carol-local' });
    await admin.patch(`/api/users/${local.id}`).send({ email: 'carol@example.org' }).expect(200);
    const before = await countSessions();
    await expectRefused(await signIn('carol', 'carol-dir-pw'), before, 409, 'sso_email_in_use');

    await t.restart({ SSO_LINK_BY_EMAIL: 'on' });
    try {
      const res = await signIn('carol', 'carol-dir-pw').expect(200);
      expect(res.body).toMatchObject({
        id: local.id,
        username: 'carol-local',
        groups: ['engineering'],
      });
      expect(logs.lines()).toContainEqual(
        expect.objectContaining({
          event: 'sso.identity.linked',
          target: `user:${local.id}`,
          provider: 'ldap',
          by: 'email',
        }),
      );
      admin = await login(t, admin.user!);
      const user = await admin.get(`/api/users/${local.id}`).expect(200);
      expect(user.body.signIn).toEqual(['local', 'ldap']);
    } finally {
      await t.restart(ldapEnv(server));
      admin = await login(t, admin.user!);
    }
  });

  it('LOCAL_LOGIN=off: only the break-glass accounts use a local password; directory people sign in', async () => {
    const editor = await createUser(t, 'editor');
    const breakGlass = await createUser(t, 'admin', { username: 'break-glass' });
    await t.restart({ LOCAL_LOGIN: 'off', LOCAL_LOGIN_ACCOUNTS: 'Break-Glass, someone-else' });
    try {
      const before = await countSessions();
      await expectRefused(
        await signIn(editor.username, editor.password),
        before,
        403,
        'local_login_off',
      );
      // A wrong password stays the usual 401 (the refusal tells only who knew the password).
      await expectRefused(
        await signIn(editor.username, 'wrong'),
        before,
        401,
        'invalid_credentials',
      );
      expect(logs.lines()).toContainEqual(
        expect.objectContaining({
          event: 'auth.login.refused',
          target: `user:${editor.id}`,
          reason: 'local_login_off',
        }),
      );
      await signIn('break-glass', breakGlass.password).expect(200);
      await signIn('grace', 'grace-dir-pw').expect(200);
    } finally {
      await t.restart(ldapEnv(server));
      admin = await login(t, admin.user!);
    }
  });

  it('ends a directory person’s sessions at once when they are disabled in kb', async () => {
    const res = await signIn('ada', 'ada-dir-pw').expect(200);
    const ada = sessionOf(res);
    await ada.get('/api/me').expect(200);
    await admin.patch(`/api/users/${res.body.id}`).send({ disabled: true }).expect(200);
    const after = await ada.get('/api/me').expect(401);
    expect(after.body).toEqual(problem(401, 'session_expired'));
    const before = await countSessions();
    // The directory still takes her password; kb does not let her in.
    await expectRefused(await signIn('ada', 'ada-dir-pw'), before, 403, 'account_disabled');
    await admin.patch(`/api/users/${res.body.id}`).send({ disabled: false }).expect(200);
  });

  it('asks a directory person with TOTP for the code, and records the session as ldap+totp', async () => {
    const otto = sessionOf(await signIn('otto', 'otto-dir-pw').expect(200));
    const setup = await otto.post('/api/me/two-factor/totp').expect(200);
    // Each step's code is another period's: a used code is refused.
    const code = (offsetSeconds = 0) =>
      generate({
        secret: setup.body.secret as string,
        epoch: Math.floor(Date.now() / 1000) + offsetSeconds,
      });
    await otto
      .post('/api/me/two-factor/totp/enable')
      .send({ code: await code() })
      .expect(200);

    const first = await signIn('otto', 'otto-dir-pw').expect(401);
    expect(first.body).toEqual(
      problem(401, 'second_factor_required', { methods: ['totp', 'recovery_code'] }),
    );
    const pending = ([] as string[])
      .concat((first.headers['set-cookie'] as unknown as string[]) ?? [])
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('kb_2fa='));
    const done = await t
      .http()
      .post('/auth/2fa/verify')
      .set('Cookie', pending!)
      .send({ code: await code(30) })
      .expect(200);
    const sessions = await sessionOf(done).get('/api/me/sessions').expect(200);
    expect(sessions.body.items).toContainEqual(
      expect.objectContaining({ current: true, method: 'ldap+totp' }),
    );
  });

  it('uses up an invitation to the directory person’s address at their first sign-in', async () => {
    await createGroup(t, 'handbook');
    const invited = await admin
      .post('/api/invitations')
      .send({ email: 'ivy@EXAMPLE.org', role: 'editor', groups: ['handbook'] })
      .expect(201);
    // Without a role map the invitation's role holds; the group map still adds its groups.
    await t.restart({ LDAP_ROLE_MAP: '' });
    try {
      admin = await login(t, admin.user!);
      const res = await signIn('ivy', 'ivy-dir-pw').expect(200);
      expect(res.body).toMatchObject({ username: 'ivy', role: 'editor', groups: ['handbook'] });
      const [row] = await t.dataSource.query(
        'SELECT accepted_user_id FROM invitations WHERE id = ?',
        [invited.body.id],
      );
      expect(row.accepted_user_id).toBe(res.body.id);
      const open = await admin.get('/api/invitations').expect(200);
      expect(open.body.items.map((i: { id: string }) => i.id)).not.toContain(invited.body.id);
      expect(logs.lines()).toContainEqual(
        expect.objectContaining({
          event: 'invitation.accepted',
          username: 'ivy',
          provider: 'ldap',
          role: 'editor',
        }),
      );
    } finally {
      await t.restart(ldapEnv(server));
      admin = await login(t, admin.user!);
    }
  });

  it('reads groups with a group search (LDAP_GROUP_FILTER) where there is no memberOf', async () => {
    await server.setGroups('dora', ['editors', 'ops']);
    await t.restart({
      LDAP_GROUPS_ATTRIBUTE: 'description',
      LDAP_GROUP_FILTER: '(&(objectClass=groupOfNames)(member={dn}))',
      LDAP_GROUP_SEARCH_BASE: LDAP_GROUPS,
    });
    try {
      const res = await signIn('dora', 'dora-dir-pw').expect(200);
      expect(res.body).toMatchObject({ username: 'dora', role: 'editor', groups: ['ops'] });
    } finally {
      await t.restart(ldapEnv(server));
      admin = await login(t, admin.user!);
    }
  });

  describe('TLS', () => {
    afterAll(async () => {
      await t.restart(ldapEnv(server));
    });

    it('signs in over LDAPS with LDAP_CA_FILE', async () => {
      await t.restart({ LDAP_URL: server.ldapsUrl, LDAP_CA_FILE: server.caFile });
      await signIn('tls', 'tls-dir-pw').expect(200);
    });

    it('signs in with StartTLS and LDAP_CA_FILE', async () => {
      await t.restart({ LDAP_URL: server.url, LDAP_STARTTLS: 'on', LDAP_CA_FILE: server.caFile });
      await signIn('tls', 'tls-dir-pw').expect(200);
    });

    it('refuses a directory whose certificate LDAP_CA_FILE does not vouch for (503, no sign-in)', async () => {
      const envs: Record<string, string>[] = [
        { LDAP_URL: server.ldapsUrl, LDAP_CA_FILE: server.otherCaFile },
        { LDAP_URL: server.url, LDAP_STARTTLS: 'on', LDAP_CA_FILE: server.otherCaFile },
      ];
      for (const env of envs) {
        await t.restart(env);
        const before = await countSessions();
        await expectRefused(await signIn('tls', 'tls-dir-pw'), before, 503, 'ldap_unavailable');
      }
    });
  });
});
