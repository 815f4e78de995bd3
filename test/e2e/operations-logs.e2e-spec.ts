import type { Response } from 'supertest';
import { captureLogs, eventually, LogCapture, LogLine } from '../support/log-capture';
import { refusedUrl } from '../support/pdf';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createUser, login, TestUser } from '../support/users';
import { postImport } from '../support/import-helpers';

const NEST_BOOT_CONTEXTS = ['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer'];

describe('operations: logs an operator can use', () => {
  let t: TestApp;
  let logs: LogCapture;
  let bootLines: LogLine[];
  let admin: TestUser;
  let session: Client;

  beforeAll(async () => {
    logs = captureLogs();
    t = await createTestApp({
      LOG_LEVEL: 'info',
      LOGIN_MAX_FAILURES: '2',
      PDF_SERVICE_URL: await refusedUrl(),
    });
    bootLines = logs.lines();
    admin = await createUser(t, 'admin');
    session = await login(t, admin);
  });
  afterAll(async () => {
    logs.stop();
    await t.close();
  });

  const requestId = (res: Response) => res.headers['x-request-id'] as string;
  const linesOf = (res: Response) => logs.lines().filter((l) => l.requestId === requestId(res));

  /** The one audit line of this event written while serving `res`. */
  async function auditLine(event: string, res: Response): Promise<LogLine> {
    return eventually(() => {
      const found = linesOf(res).filter((l) => l.context === 'audit' && l.event === event);
      expect(found).toHaveLength(1);
      return found[0];
    });
  }

  it("writes Nest's module and route-mapping lines only at debug", async () => {
    expect(bootLines.filter((l) => NEST_BOOT_CONTEXTS.includes(l.context))).toEqual([]);
    const debug = captureLogs();
    let debugApp: TestApp | undefined;
    try {
      debugApp = await createTestApp({ LOG_LEVEL: 'debug' });
    } finally {
      debug.stop();
      await debugApp?.close();
    }
    expect(debug.lines()).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        context: 'RouterExplorer',
        msg: expect.stringMatching(/^Mapped \{\/api\/pages, POST\} route/),
      }),
    );
  });

  it('puts the problem code on the request line of an error answer', async () => {
    const missing = await session.get('/api/pages/no/such/page').expect(404);
    const fine = await session.get('/api/me').expect(200);
    await eventually(() => {
      expect(linesOf(missing)).toContainEqual(
        expect.objectContaining({
          context: 'HTTP',
          msg: 'request',
          status: 404,
          code: 'page_not_found',
          path: '/api/pages/no/such/page',
          userId: admin.id,
        }),
      );
      const ok = linesOf(fine).find((l) => l.msg === 'request');
      expect(ok).toMatchObject({ status: 200 });
      expect(ok).not.toHaveProperty('code');
    });
  });

  it('writes one line per PDF-service failure, with the request id', async () => {
    await session.post('/api/pages').send({ slug: 'printable', title: 'Printable' }).expect(201);
    const res = await session.get('/export/pdf/printable').expect(502);
    const failures = await eventually(() => {
      const lines = linesOf(res).filter((l) => l.context === 'PdfClient');
      expect(lines.length).toBeGreaterThan(0);
      return lines;
    });
    expect(failures).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'pdf service failed',
        requestId: requestId(res),
        code: 'pdf_service_failed',
        status: 502,
        reason: 'ECONNREFUSED',
      }),
    ]);
    await eventually(() =>
      expect(linesOf(res)).toContainEqual(
        expect.objectContaining({ msg: 'request', status: 502, code: 'pdf_service_failed' }),
      ),
    );
  });

  it('keeps an audit trail of sign-ins, credentials, accounts, imports and the bin', async () => {
    const http = () => t.http();
    const base = (event: string, actorId: string | null, target: string, res: Response) => ({
      context: 'audit',
      level: 'info',
      msg: event,
      event,
      actorId,
      target,
      requestId: requestId(res),
    });

    const failed = await http()
      .post('/auth/login')
      .send({ username: admin.username, password: 'not the password' })
      .expect(401);
    expect(await auditLine('auth.login.failed', failed)).toEqual({
      ...base('auth.login.failed', null, `username:${admin.username}`, failed),
      time: expect.any(String),
      reason: 'wrong_password',
      ip: expect.any(String),
    });
    const signedIn = await http()
      .post('/auth/login')
      .send({ username: admin.username, password: admin.password })
      .expect(200);
    expect(await auditLine('auth.login.succeeded', signedIn)).toMatchObject(
      base('auth.login.succeeded', admin.id, `user:${admin.id}`, signedIn),
    );
    for (const password of ['guess-1', 'guess-2'])
      await http().post('/auth/login').send({ username: 'mallory', password }).expect(401);
    const throttled = await http()
      .post('/auth/login')
      .send({ username: 'mallory', password: 'guess-3' })
      .expect(429);
    expect(await auditLine('auth.throttled', throttled)).toMatchObject(
      base('auth.throttled', null, 'username:mallory', throttled),
    );

    const token = await session.post('/api/tokens').send({ name: 'ci' }).expect(201);
    const created = await auditLine('token.created', token);
    expect(created).toMatchObject(base('token.created', admin.id, `token:${token.body.id}`, token));
    expect(JSON.stringify(created)).not.toContain(token.body.token);
    const revoked = await session.delete(`/api/tokens/${token.body.id}`).expect(204);
    expect(await auditLine('token.revoked', revoked)).toMatchObject(
      base('token.revoked', admin.id, `token:${token.body.id}`, revoked),
    );

    const group = await session.post('/api/groups').send({ name: 'ops' }).expect(201);
    expect(await auditLine('group.created', group)).toMatchObject(
      base('group.created', admin.id, `group:${group.body.id}`, group),
    );
    const user = await session
      .post('/api/users')
      .send({ username: 'grace', password: 'long-enough-pw', role: 'editor', groups: ['ops'] })
      .expect(201);
    expect(await auditLine('user.created', user)).toMatchObject({
      ...base('user.created', admin.id, `user:${user.body.id}`, user),
      username: 'grace',
      role: 'editor',
    });
    const demoted = await session
      .patch(`/api/users/${user.body.id}`)
      .send({ role: 'reader', password: 'another-long-pw' })
      .expect(200);
    const updated = await auditLine('user.updated', demoted);
    expect(updated).toMatchObject({
      ...base('user.updated', admin.id, `user:${user.body.id}`, demoted),
      changed: ['role', 'password'],
      role: 'reader',
    });
    expect(JSON.stringify(updated)).not.toContain('another-long-pw');

    const own = await session
      .patch('/api/me')
      .send({ displayName: 'The Admin', revokeTokens: true })
      .expect(200);
    expect(await auditLine('user.updated', own)).toMatchObject({
      ...base('user.updated', admin.id, `user:${admin.id}`, own),
      changed: ['displayName'],
      sessionsEnded: 0,
      tokensRevoked: 0,
    });
    const ended = await session.delete(`/api/users/${user.body.id}/sessions`).expect(204);
    expect(await auditLine('session.ended', ended)).toMatchObject({
      ...base('session.ended', admin.id, `user:${user.body.id}`, ended),
      count: 0,
    });
    const unlocked = await session.post(`/api/users/${user.body.id}/unlock`).expect(204);
    expect(await auditLine('user.unlocked', unlocked)).toMatchObject(
      base('user.unlocked', admin.id, `user:${user.body.id}`, unlocked),
    );

    const imported = await postImport(session, {
      format: 'markdown',
      files: [{ name: 'audited.md', data: '# Audited\n\nImported.\n' }],
    }).expect(200);
    expect(await auditLine('import.finished', imported)).toMatchObject({
      ...base('import.finished', admin.id, 'import:markdown', imported),
      dryRun: false,
      counts: expect.objectContaining({ created: 1 }),
    });

    const binned = await session.delete('/api/pages/audited').expect(204);
    const pageId = (await session.get('/api/bin').expect(200)).body.items[0].id as string;
    expect(await auditLine('page.binned', binned)).toMatchObject({
      ...base('page.binned', admin.id, `page:${pageId}`, binned),
      slug: 'audited',
    });
    const restored = await session.post(`/api/bin/${pageId}/restore`).expect(200);
    expect(await auditLine('page.restored', restored)).toMatchObject(
      base('page.restored', admin.id, `page:${pageId}`, restored),
    );
    await session.delete('/api/pages/audited').expect(204);
    const purged = await session.delete(`/api/bin/${pageId}`).expect(204);
    expect(await auditLine('page.purged', purged)).toMatchObject({
      ...base('page.purged', admin.id, `page:${pageId}`, purged),
      slug: 'audited',
    });
  });
});
