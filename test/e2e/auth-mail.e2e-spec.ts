import { createHash } from 'node:crypto';
import { MailLinksRepository } from '../../src/auth/mail/mail-links.repository';
import { UsersService } from '../../src/auth/users.service';
import { Mailer } from '../../src/common/mail/mailer';
import { DigestService } from '../../src/notifications/digest/digest.service';
import { NotificationsService } from '../../src/notifications/notifications.service';
import { eventually } from '../support/eventually';
import { captureLogs, LogCapture } from '../support/log-capture';
import { createPage, updatePage } from '../support/pages';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { linkIn, startSmtpServer, TestSmtpServer } from '../support/smtp-server';
import { createPeerApp, createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, createUser, login, signedIn } from '../support/users';

/**
 * Email through a real SMTP server (smtp-server, test/support/smtp-server.ts): invitations,
 * password resets and the inbox digest, with every refused answer; on SQLite and MariaDB.
 */
const PUBLIC_URL = 'http://kb.test';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** A moment as both databases take it in a plain query (UTC, as kb stores datetimes). */
const at = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
const tokenOf = (link: string) => new URL(link).hash.replace(/^#token=/, '');
let clientCounter = 0;
/** A client address of its own (TRUST_PROXY=loopback), so per-client limits don't meet. */
const newClientIp = () => `203.0.113.${++clientCounter}`;

describe('email: invitations, password reset, digest', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let logs: LogCapture;
  let admin: Client;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    logs = captureLogs();
    t = await createTestApp({
      KB_PUBLIC_URL: PUBLIC_URL,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'loopback',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'kb <kb@kb.test>',
      MAIL_DIGEST_INTERVAL_SECONDS: '0',
      PASSWORD_RESET_LIMIT_ADDRESS: '3/3600s',
      PASSWORD_RESET_LIMIT_CLIENT: '6/3600s',
    });
    admin = await signedIn(t, 'admin');
    await createGroup(t, 'engineering');
  });
  afterAll(async () => {
    logs?.stop();
    await t?.close();
    await smtp?.close();
  });

  function requestReset(email: string, ip = newClientIp()) {
    return t.http().post('/auth/password-reset').set('X-Forwarded-For', ip).send({ email });
  }

  describe('invitations', () => {
    it('invites by email; the link sets a password once and the person signs in with the role and groups', async () => {
      const res = await admin
        .post('/api/invitations')
        .send({ email: 'Ada.Lovelace@example.com', role: 'editor', groups: ['engineering'] })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        email: 'Ada.Lovelace@example.com',
        role: 'editor',
        groups: ['engineering'],
        invitedBy: admin.user!.username,
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        status: 'pending',
        emailSent: true,
        link: null,
      });
      expect(res.headers.location).toBe(`/api/invitations/${res.body.id}`);
      expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(7 * 86_400_000);

      const mail = await smtp.waitFor('Ada.Lovelace@example.com');
      expect(mail.subject).toBe('You are invited to kb');
      expect(mail.from).toBe('kb@kb.test');
      const link = linkIn(mail, `${PUBLIC_URL}/invitation#token=`);
      expect(mail.html).toContain(`href="${link}"`);
      const token = tokenOf(link);
      // Kept hashed: the row has the token's SHA-256, never the token.
      const [row] = await t.dataSource.query('SELECT token_hash FROM invitations WHERE id = ?', [
        res.body.id,
      ]);
      expect(row.token_hash).toBe(sha256(token));
      expect(JSON.stringify(row)).not.toContain(token);

      const list = await admin.get('/api/invitations').expect(200);
      expect(list.body.items.map((i: { id: string }) => i.id)).toContain(res.body.id);

      const details = await t.http().post('/auth/invitations/lookup').send({ token }).expect(200);
      expect(details.body).toEqual({
        email: 'Ada.Lovelace@example.com',
        role: 'editor',
        suggestedUsername: 'ada.lovelace',
        expiresAt: res.body.expiresAt,
      });

      // A weak password (the usual rule: 8 characters at least) creates nothing.
      const weak = await t
        .http()
        .post('/auth/invitations/accept')
        .send({ token, username: 'ada', password: 'short' })
        .expect(422);
      expect(weak.body.errors).toEqual([
        expect.objectContaining({ field: 'password', code: 'is_length' }),
      ]);
      expect(await t.get(UsersService).findActiveByUsername('ada')).toBeNull();

      await t
        .http()
        .post('/auth/invitations/accept')
        .send({ token, username: 'ada', password: 'ada-new-password', displayName: 'Ada L.' })
        .expect(201, { username: 'ada' });
      const ada = await login(t, {
        id: '',
        username: 'ada',
        password: 'ada-new-password',
        role: 'editor',
      });
      const me = await ada.get('/api/me').expect(200);
      expect(me.body).toMatchObject({
        username: 'ada',
        displayName: 'Ada L.',
        role: 'editor',
        groups: ['engineering'],
      });
      const account = await ada.get('/api/me/account').expect(200);
      expect(account.body.email).toBe('Ada.Lovelace@example.com');

      // Single use: the same link again is refused, and the list no longer shows it.
      const again = await t
        .http()
        .post('/auth/invitations/accept')
        .send({ token, username: 'ada2', password: 'another-password' })
        .expect(410);
      expect(again.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
      expect(again.body).toEqual(problem(410, 'invitation_used'));
      await t.http().post('/auth/invitations/lookup').send({ token }).expect(410);
      expect(await t.get(UsersService).findActiveByUsername('ada2')).toBeNull();
      const after = await admin.get('/api/invitations').expect(200);
      expect(after.body.items.map((i: { id: string }) => i.id)).not.toContain(res.body.id);
    });

    it('refuses an unknown, a revoked and an expired link in words; a taken username is 409', async () => {
      const unknown = await t
        .http()
        .post('/auth/invitations/accept')
        .send({ token: 'x'.repeat(43), username: 'nobody', password: 'long-enough' })
        .expect(404);
      expect(unknown.body).toEqual(problem(404, 'invitation_not_found'));

      const revoked = await admin
        .post('/api/invitations')
        .send({ email: 'revoke-me@example.com', role: 'reader' })
        .expect(201);
      const revokedToken = tokenOf(
        linkIn(await smtp.waitFor('revoke-me@example.com'), `${PUBLIC_URL}/invitation#token=`),
      );
      await admin.delete(`/api/invitations/${revoked.body.id}`).expect(204);
      await admin.delete(`/api/invitations/${revoked.body.id}`).expect(404);
      const refused = await t
        .http()
        .post('/auth/invitations/lookup')
        .send({ token: revokedToken })
        .expect(410);
      expect(refused.body).toEqual(problem(410, 'invitation_revoked'));

      const expiring = await admin
        .post('/api/invitations')
        .send({ email: 'late@example.com', role: 'reader' })
        .expect(201);
      const lateToken = tokenOf(
        linkIn(await smtp.waitFor('late@example.com'), `${PUBLIC_URL}/invitation#token=`),
      );
      // Eight days later, as far as the link knows.
      await t.dataSource.query('UPDATE invitations SET expires_at = ? WHERE id = ?', [
        at(Date.now() - 86_400_000),
        expiring.body.id,
      ]);
      const expired = await t
        .http()
        .post('/auth/invitations/accept')
        .send({ token: lateToken, username: 'late', password: 'long-enough' })
        .expect(410);
      expect(expired.body).toEqual(problem(410, 'invitation_expired'));
      expect(await t.get(UsersService).findActiveByUsername('late')).toBeNull();
      const listed = await admin.get('/api/invitations').expect(200);
      expect(listed.body.items).toContainEqual(
        expect.objectContaining({ id: expiring.body.id, status: 'expired' }),
      );

      const taken = await admin
        .post('/api/invitations')
        .send({ email: 'taken@example.com', role: 'reader' })
        .expect(201);
      const takenToken = tokenOf(
        linkIn(await smtp.waitFor('taken@example.com'), `${PUBLIC_URL}/invitation#token=`),
      );
      const clash = await t
        .http()
        .post('/auth/invitations/accept')
        .send({ token: takenToken, username: admin.user!.username, password: 'long-enough' })
        .expect(409);
      expect(clash.body).toEqual(problem(409, 'username_taken'));
      // The link still works after a refused try.
      await t.http().post('/auth/invitations/lookup').send({ token: takenToken }).expect(200);
      expect(taken.body.status).toBe('pending');
    });

    it('is for administrators; bad input is a field problem', async () => {
      await anonymous(t)
        .post('/api/invitations')
        .send({ email: 'a@example.com', role: 'reader' })
        .expect(401);
      const editor = await signedIn(t, 'editor');
      await editor
        .post('/api/invitations')
        .send({ email: 'a@example.com', role: 'reader' })
        .expect(403);
      await editor.get('/api/invitations').expect(403);
      const bad = await admin
        .post('/api/invitations')
        .send({ email: 'not-an-address', role: 'owner' })
        .expect(422);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'email',
        'role',
      ]);
      const group = await admin
        .post('/api/invitations')
        .send({ email: 'g@example.com', role: 'reader', groups: ['no-such-group'] })
        .expect(422);
      expect(group.body.errors).toEqual([
        expect.objectContaining({ field: 'groups[0]', code: 'unknown_group' }),
      ]);
    });

    it('tries a refused delivery again', async () => {
      smtp.refuseNext(1);
      const refusedBefore = smtp.refused;
      await admin
        .post('/api/invitations')
        .send({ email: 'greylisted@example.com', role: 'reader' })
        .expect(201);
      const mail = await smtp.waitFor('greylisted@example.com');
      expect(smtp.refused).toBe(refusedBefore + 1);
      expect(mail.subject).toBe('You are invited to kb');
    });
  });

  describe('password reset', () => {
    it('mails a single-use link that sets the password and ends every session', async () => {
      await expect(t.http().get('/auth/password-reset').expect(200)).resolves.toMatchObject({
        body: { enabled: true },
      });
      const user = await createUser(t, 'editor');
      await t.get(UsersService).update(user.id, { email: 'grace@example.com' }, admin.user!.id);
      const first = await login(t, user);
      const second = await login(t, user);

      const res = await requestReset('GRACE@example.com').expect(202);
      expect(res.body).toEqual({
        detail: expect.stringContaining('If an account has this address'),
      });
      const mail = await smtp.waitFor('grace@example.com');
      expect(mail.subject).toBe('Set a new kb password');
      expect(mail.text).toContain(user.username);
      const link = linkIn(mail, `${PUBLIC_URL}/reset-password#token=`);
      const token = tokenOf(link);
      const rows = await t.dataSource.query(
        'SELECT token_hash, expires_at, created_at FROM password_resets WHERE user_id = ?',
        [user.id],
      );
      expect(rows.map((r: { token_hash: string }) => r.token_hash)).toEqual([sha256(token)]);

      const weak = await t
        .http()
        .post('/auth/password-reset/confirm')
        .send({ token, password: '1234567' })
        .expect(422);
      expect(weak.body.errors).toEqual([
        expect.objectContaining({ field: 'password', code: 'is_length' }),
      ]);
      await first.get('/api/me').expect(200);

      await t
        .http()
        .post('/auth/password-reset/confirm')
        .send({ token, password: 'a-brand-new-password' })
        .expect(200, { username: user.username, sessionsEnded: 2 });
      await first.get('/api/me').expect(401);
      await second.get('/api/me').expect(401);
      const [{ n }] = await t.dataSource.query(
        'SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?',
        [user.id],
      );
      expect(Number(n)).toBe(0);
      await t
        .http()
        .post('/auth/login')
        .send({ username: user.username, password: user.password })
        .expect(401);
      await login(t, { ...user, password: 'a-brand-new-password' });

      const reused = await t
        .http()
        .post('/auth/password-reset/confirm')
        .send({ token, password: 'yet-another-password' })
        .expect(410);
      expect(reused.body).toEqual(problem(410, 'reset_link_used'));
      await login(t, { ...user, password: 'a-brand-new-password' });
    });

    it('answers an unknown address exactly as a known one, and mails nobody', async () => {
      // One account per sample: the per-address limit (3 an hour here) stays out of it.
      for (let i = 0; i < 5; i++) {
        const user = await createUser(t, 'reader');
        await t
          .get(UsersService)
          .update(user.id, { email: `known-${i}@example.com` }, admin.user!.id);
      }
      const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
      const answers: Record<'known' | 'unknown', unknown[]> = { known: [], unknown: [] };
      for (let i = 0; i < 5; i++) {
        for (const [kind, email] of [
          ['unknown', `nobody-${i}@example.com`],
          ['known', `known-${i}@example.com`],
        ] as const) {
          const started = performance.now();
          const res = await requestReset(email);
          timings[kind].push(performance.now() - started);
          answers[kind].push({
            status: res.status,
            body: res.body,
            type: res.headers['content-type'],
          });
          // The work after the answer (lookup, link, mail) settles before the next measurement.
          if (kind === 'known') await smtp.waitFor(email);
          await t.get(Mailer).idle();
        }
      }
      expect(answers.unknown).toEqual(answers.known);
      expect(answers.known[0]).toMatchObject({ status: 202 });
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2];
      expect(Math.abs(median(timings.known) - median(timings.unknown))).toBeLessThan(100);
      expect(smtp.messages.filter((m) => m.to.some((a) => a.startsWith('nobody-')))).toEqual([]);
    });

    it('refuses an unknown and an expired link', async () => {
      const unknown = await t
        .http()
        .post('/auth/password-reset/confirm')
        .send({ token: 'y'.repeat(43), password: 'long-enough' })
        .expect(404);
      expect(unknown.body).toEqual(problem(404, 'reset_link_not_found'));

      const user = await createUser(t, 'reader');
      await t.get(UsersService).update(user.id, { email: 'slow@example.com' }, admin.user!.id);
      await requestReset('slow@example.com').expect(202);
      const token = tokenOf(
        linkIn(await smtp.waitFor('slow@example.com'), `${PUBLIC_URL}/reset-password#token=`),
      );
      // 31 minutes later, as far as the link knows.
      await t.dataSource.query('UPDATE password_resets SET expires_at = ? WHERE user_id = ?', [
        at(Date.now() - 60_000),
        user.id,
      ]);
      const expired = await t
        .http()
        .post('/auth/password-reset/confirm')
        .send({ token, password: 'long-enough' })
        .expect(410);
      expect(expired.body).toEqual(problem(410, 'reset_link_expired'));
      await login(t, user);

      // The hourly housekeeping drops links a day past their end.
      await t.get(MailLinksRepository).purge(new Date());
      const kept = await t.dataSource.query('SELECT 1 FROM password_resets WHERE user_id = ?', [
        user.id,
      ]);
      expect(kept).toHaveLength(1);
      await t.dataSource.query('UPDATE password_resets SET expires_at = ? WHERE user_id = ?', [
        at(Date.now() - 2 * 86_400_000),
        user.id,
      ]);
      await t.get(MailLinksRepository).purge(new Date());
      const purged = await t.dataSource.query('SELECT 1 FROM password_resets WHERE user_id = ?', [
        user.id,
      ]);
      expect(purged).toEqual([]);
    });

    it('limits requests per address and per client, whether or not the address is known', async () => {
      const ip = newClientIp();
      for (let i = 0; i < 3; i++) await requestReset('limited@example.com', ip).expect(202);
      const over = await requestReset('limited@example.com', newClientIp()).expect(429);
      expect(over.body).toEqual(problem(429, 'rate_limited'));
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);

      const client = newClientIp();
      for (let i = 0; i < 6; i++) await requestReset(`spray-${i}@example.com`, client).expect(202);
      await requestReset('spray-last@example.com', client).expect(429);
      // Another client is not held back by that one.
      await requestReset('spray-last@example.com').expect(202);
    });

    it('LOCAL_LOGIN=off: mails where to sign in instead of a link, and refuses an older link', async () => {
      const user = await createUser(t, 'editor');
      await t.get(UsersService).update(user.id, { email: 'sso-only@example.com' }, admin.user!.id);
      await requestReset('sso-only@example.com').expect(202);
      const token = tokenOf(
        linkIn(await smtp.waitFor('sso-only@example.com'), `${PUBLIC_URL}/reset-password#token=`),
      );

      await t.restart({ LOCAL_LOGIN: 'off', LOCAL_LOGIN_ACCOUNTS: 'admin' });
      try {
        const refused = await t
          .http()
          .post('/auth/password-reset/confirm')
          .send({ token, password: 'a-password-nobody-may-use' })
          .expect(403);
        expect(refused.body).toEqual(problem(403, 'local_login_off'));
        const [{ used }] = await t.dataSource.query(
          'SELECT used_at AS used FROM password_resets WHERE user_id = ?',
          [user.id],
        );
        expect(used).toBeNull();

        await requestReset('sso-only@example.com').expect(202);
        const mail = await smtp.waitFor('sso-only@example.com', 2);
        expect(mail.subject).toBe('Signing in to kb');
        expect(mail.text).toContain('single sign-on');
        expect(mail.text).not.toContain('/reset-password');
        await t.get(Mailer).idle();
        const rows = await t.dataSource.query('SELECT 1 FROM password_resets WHERE user_id = ?', [
          user.id,
        ]);
        expect(rows).toHaveLength(1);
      } finally {
        await t.restart();
      }
    });
  });

  describe('digest', () => {
    it('mails subscribers their unread notices they may still see, once per period across instances', async () => {
      await createGroup(t, 'secret');
      const reader = await signedIn(t, 'reader', { groups: ['secret'] });
      await t
        .get(UsersService)
        .update(reader.user!.id, { email: 'reader@example.com' }, admin.user!.id);
      const quiet = await signedIn(t, 'reader');
      await t
        .get(UsersService)
        .update(quiet.user!.id, { email: 'quiet@example.com' }, admin.user!.id);

      expect((await reader.get('/api/me/digest').expect(200)).body).toEqual({
        enabled: false,
        email: 'reader@example.com',
        mailConfigured: true,
      });
      await reader.put('/api/me/digest').send({ enabled: 'yes' }).expect(400);
      await reader
        .put('/api/me/digest')
        .send({ enabled: true })
        .expect(200, { enabled: true, email: 'reader@example.com', mailConfigured: true });
      await anonymous(t).get('/api/me/digest').expect(401);

      const owner = reader.user!.username;
      await createPage(admin, 'digest/visible', { title: 'Visible Handbook', owner });
      await createPage(admin, 'digest/read', { title: 'Already Read', owner });
      await createPage(admin, 'digest/secret', { title: 'Secret Plan', owner, groups: ['secret'] });
      await updatePage(admin, 'digest/visible', { content: '# Visible\n\nChanged.' });
      await updatePage(admin, 'digest/read', { content: '# Read\n\nChanged.' });
      await updatePage(admin, 'digest/secret', { content: '# Secret\n\nChanged.' });
      const items = await eventually(async () => {
        const body = (await reader.get('/api/notifications').expect(200)).body;
        expect(body.items).toHaveLength(3);
        return body.items as { id: string; page: { slug: string } }[];
      });
      const read = items.find((n) => n.page.slug === 'digest/read')!;
      await reader.post(`/api/notifications/${read.id}/read`).expect(204);
      // No longer in the group: the secret page's notice is not theirs to see any more.
      await t.get(UsersService).update(reader.user!.id, { groups: [] }, admin.user!.id);

      // Two instances find the run due at the same moment: exactly one runs it.
      const peer = await createPeerApp(t);
      try {
        const runs = await Promise.all([
          t.get(DigestService).runIfDue(),
          peer.get(DigestService).runIfDue(),
        ]);
        expect(runs.filter((r) => r !== null)).toEqual([1]);
        expect(await t.get(DigestService).runIfDue()).toBeNull();
      } finally {
        await peer.close();
      }
      const digest = await smtp.waitFor('reader@example.com');
      expect(digest.subject).toBe('kb: 1 unread notification');
      expect(digest.text).toContain('Visible Handbook');
      expect(digest.text).toContain(`${PUBLIC_URL}/wiki/digest/visible`);
      expect(digest.text).not.toContain('Already Read');
      expect(digest.text).not.toContain('Secret Plan');
      expect(digest.html).not.toContain('Secret Plan');
      await t.get(Mailer).idle();
      expect(smtp.to('reader@example.com')).toHaveLength(1);
      expect(smtp.to('quiet@example.com')).toEqual([]);

      // The next period: nothing new, nothing sent; a new notice comes in the next digest.
      await t.dataSource.query(
        "UPDATE scheduler_leases SET next_run_at = ? WHERE name = 'mail.digest'",
        [at(0)],
      );
      expect(await t.get(DigestService).runIfDue()).toBe(0);
      await t.get(NotificationsService).create({
        recipientId: reader.user!.id,
        kind: 'import.finished',
        data: { pages: 1 },
      });
      await t.dataSource.query(
        "UPDATE scheduler_leases SET next_run_at = ? WHERE name = 'mail.digest'",
        [at(0)],
      );
      expect(await t.get(DigestService).runIfDue()).toBe(1);
      const next = await smtp.waitFor('reader@example.com', 2);
      expect(next.text).toContain('An import finished');
      expect(next.text).not.toContain('Visible Handbook');

      await reader.put('/api/me/digest').send({ enabled: false }).expect(200);
      const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM digest_subscriptions');
      expect(Number(n)).toBe(0);
    });
  });

  it('writes audit lines for invitations and resets, with no secret in any log line', async () => {
    await t.get(Mailer).idle();
    const lines = logs.lines();
    const events = new Set(lines.filter((l) => l.context === 'audit').map((l) => l.event));
    for (const event of [
      'invitation.sent',
      'invitation.accepted',
      'invitation.revoked',
      'auth.password_reset.requested',
      'auth.password_reset.used',
    ]) {
      expect(events).toContain(event);
    }
    const text = JSON.stringify(lines);
    expect(text).not.toContain(smtp.password);
    for (const mail of smtp.messages) {
      const link = /#token=([\w-]+)/.exec(mail.text);
      if (link) expect(text).not.toContain(link[1]);
    }
  });
});

describe('email without SMTP', () => {
  let t: TestApp;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp({ KB_PUBLIC_URL: PUBLIC_URL });
    admin = await signedIn(t, 'admin');
  });
  afterAll(() => t?.close());

  it('answers the invitation link for the administrator to pass on', async () => {
    const res = await admin
      .post('/api/invitations')
      .send({ email: 'offline@example.com', role: 'reader' })
      .expect(201);
    expect(res.body).toMatchObject({ emailSent: false, link: expect.any(String) });
    const link = res.body.link as string;
    expect(link.startsWith(`${PUBLIC_URL}/invitation#token=`)).toBe(true);
    await t
      .http()
      .post('/auth/invitations/accept')
      .send({ token: tokenOf(link), username: 'offline', password: 'offline-password' })
      .expect(201, { username: 'offline' });
    await login(t, { id: '', username: 'offline', password: 'offline-password', role: 'reader' });
  });

  it('turns password reset off with a clear problem', async () => {
    await t.http().get('/auth/password-reset').expect(200, { enabled: false });
    const off = await t
      .http()
      .post('/auth/password-reset')
      .send({ email: 'anyone@example.com' })
      .expect(403);
    expect(off.body).toEqual(problem(403, 'password_reset_off'));
    const confirm = await t
      .http()
      .post('/auth/password-reset/confirm')
      .send({ token: 'z'.repeat(43), password: 'long-enough' })
      .expect(403);
    expect(confirm.body).toEqual(problem(403, 'password_reset_off'));
  });
});
