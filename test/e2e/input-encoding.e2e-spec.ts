import { deflateSync, gzipSync } from 'node:zlib';
import { png } from '../support/images';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createUser, signedIn } from '../support/users';
import { rawMultipart } from '../support/media-support';

/**
 * Issue 9 item 6: a body whose Content-Encoding lies answers 400 `invalid_content_encoding`
 * (JSON routes inflate gzip, deflate and br) or 415 `unsupported_encoding` (bodies no parser
 * inflates), never 500; nothing is written.
 */
describe('input encoding: corrupt or unaccepted Content-Encoding', () => {
  let t: TestApp;
  let editor: Client;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    editor = await signedIn(t, 'editor');
  });
  afterAll(() => t.close());

  async function count(table: string): Promise<number> {
    const rows: { n: number | string }[] = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM ${table}`,
    );
    return Number(rows[0].n);
  }

  /** Sends the bytes as they are (supertest would JSON-encode a Buffer sent as JSON). */
  const raw = (body: unknown): string => body as string;

  const page = JSON.stringify({ slug: 'enc/1', title: 'T', content: 'x' });
  const corrupt: [string, Buffer][] = [
    ['gzip', Buffer.concat([gzipSync(page).subarray(0, 12), Buffer.from('not gzip at all')])],
    ['deflate', Buffer.from('definitely not a deflate stream')],
    ['gzip', Buffer.from('plain text claiming to be gzip')],
    ['br', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x01])],
  ];

  it.each(corrupt)(
    'a corrupt %s body answers 400 invalid_content_encoding on JSON routes, unknown paths and login; nothing written',
    async (encoding, body) => {
      const user = await createUser(t, 'reader');
      const sessions = await count('sessions');
      const sends = [
        editor.post('/api/pages'),
        editor.put('/api/variables'),
        anonymous(t).post('/auth/login'),
        anonymous(t).post('/api/no-such-route'),
      ];
      for (const req of sends) {
        const res = await req
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .serialize(raw)
          .send(body);
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
        expect(res.body).toEqual(problem(400, 'invalid_content_encoding'));
      }
      expect(await count('pages')).toBe(0);
      expect(await count('sessions')).toBe(sessions);
      expect(user.username).toBeTruthy();
    },
  );

  it('a valid gzip or deflate JSON body is read', async () => {
    const gz = await editor
      .post('/api/pages')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(raw)
      .send(gzipSync(page));
    expect(gz.status).toBe(201);
    const other = JSON.stringify({ slug: 'enc/2', title: 'T2', content: 'y' });
    const df = await editor
      .post('/api/pages')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'deflate')
      .serialize(raw)
      .send(deflateSync(other));
    expect(df.status).toBe(201);
    expect(await count('pages')).toBe(2);
  });

  it('a compressed body inflating past the route budget answers 413 (no zip bomb on login)', async () => {
    const bomb = gzipSync(Buffer.from(`{"username":"a","password":"${' '.repeat(1024 * 1024)}"}`));
    expect(bomb.length).toBeLessThan(8 * 1024);
    const res = await anonymous(t)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(raw)
      .send(bomb);
    expect(res.status).toBe(413);
    expect(res.body).toEqual(problem(413, 'payload_too_large'));
  });

  it('an encoding no parser knows answers 415 unsupported_encoding', async () => {
    const res = await editor
      .post('/api/pages')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'x-unknown')
      .send(page);
    expect(res.status).toBe(415);
    expect(res.body).toEqual(problem(415, 'unsupported_encoding'));
    expect(await count('pages')).toBe(0);
  });

  it('a compressed multipart upload answers 415 unsupported_encoding; nothing stored', async () => {
    const { body, contentType } = rawMultipart('a.png', png(1, 1));
    for (const [encoding, data] of [
      ['gzip', gzipSync(body)],
      ['gzip', Buffer.from('corrupt')],
      ['deflate', deflateSync(body)],
    ] as const) {
      const res = await editor
        .post('/api/images')
        .set('Content-Type', contentType)
        .set('Content-Encoding', encoding)
        .send(data);
      expect(res.status).toBe(415);
      expect(res.body).toEqual(problem(415, 'unsupported_encoding'));
      expect(res.headers['accept-encoding']).toBe('identity');
    }
    expect(await count('media')).toBe(0);
  });
});
