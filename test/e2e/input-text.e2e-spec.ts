import { png } from '../support/images';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createUser, login, signedIn, TestUser } from '../support/users';
import { rawMultipart } from '../support/media-support';

/**
 * Issue 9 item 13: names kb shows (display names, group names, token names, uploaded file
 * names) refuse NUL, C0/C1 controls, bidi formatting characters and lone surrogates with the
 * field problem `invalid_characters`, and nothing is written (docs/auth.md "Input limits").
 */
describe('input text: names refuse control, bidi and unpaired surrogate characters', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let editorUser: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    editorUser = await createUser(t, 'editor');
    editor = await login(t, editorUser);
  });
  afterAll(() => t.close());

  const HOSTILE: [string, string][] = [
    ['NUL', 'Ada\u0000Lovelace'],
    ['a C0 control', 'Ada\u001bLovelace'],
    ['a newline', 'Ada\nLovelace'],
    ['a C1 control', 'Ada\u0085'],
    ['a right-to-left override', 'Ada\u202eecalevol'],
    ['an isolate', '\u2067Ada\u2069'],
    ['a lone surrogate', 'Ada\ud800'],
  ];

  function refused(field: string, code = 'invalid_characters'): Record<string, unknown> {
    return problem(422, 'validation_failed', {
      errors: expect.arrayContaining([
        { field, code, message: expect.stringContaining('control characters') },
      ]),
    });
  }

  async function count(table: string): Promise<number> {
    const rows: { n: number | string }[] = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM ${table}`,
    );
    return Number(rows[0].n);
  }

  it.each(HOSTILE)('POST /api/users refuses a displayName with %s; no user', async (_l, name) => {
    const users = await count('users');
    const res = await admin
      .post('/api/users')
      .send({ username: 'newuser', password: 'password-1', role: 'reader', displayName: name });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(refused('displayName'));
    expect(await count('users')).toBe(users);
  });

  it.each(HOSTILE)(
    'PATCH /api/users/{id} and /api/me refuse a displayName with %s; the name stays',
    async (_l, name) => {
      await admin.patch(`/api/users/${editorUser.id}`).send({ displayName: 'Before' }).expect(200);
      const byAdmin = await admin.patch(`/api/users/${editorUser.id}`).send({ displayName: name });
      expect(byAdmin.status).toBe(422);
      expect(byAdmin.body).toEqual(refused('displayName'));
      const bySelf = await editor.patch('/api/me').send({ displayName: name });
      expect(bySelf.status).toBe(422);
      expect(bySelf.body).toEqual(refused('displayName'));
      expect((await editor.get('/api/me').expect(200)).body.displayName).toBe('Before');
    },
  );

  it.each(HOSTILE)('POST /api/groups refuses a name with %s; no group', async (_l, name) => {
    const res = await admin.post('/api/groups').send({ name });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(refused('name'));
    expect(await count('access_groups')).toBe(0);
  });

  it.each(HOSTILE)('POST /api/tokens refuses a name with %s; no token', async (_l, name) => {
    const res = await editor.post('/api/tokens').send({ name });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(refused('name'));
    expect(await count('access_tokens')).toBe(0);
  });

  it.each([
    ['a C1 control', 'a\u0085b.png'],
    ['a tab', 'a\tb.png'],
    ['a right-to-left override', 'evil\u202egnp.png'],
    ['an isolate', 'a\u2066b.png'],
  ])('an upload whose file name has %s is refused (422 file); nothing stored', async (_l, name) => {
    const { body, contentType } = rawMultipart(name, png(1, 1));
    const res = await editor.post('/api/images').set('Content-Type', contentType).send(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(refused('file'));
    expect(await count('media')).toBe(0);
  });

  it('a raw NUL in the multipart header is a malformed body (400); nothing stored', async () => {
    const { body, contentType } = rawMultipart('a\u0000b.png', png(1, 1));
    const res = await editor.post('/api/images').set('Content-Type', contentType).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(problem(400, 'invalid_multipart'));
    expect(await count('media')).toBe(0);
  });

  it('ordinary names in any script, with emoji, are kept as sent', async () => {
    const name = 'Zoë Ωμέγα 東京 עברית 👩‍💻';
    await admin.patch(`/api/users/${editorUser.id}`).send({ displayName: name }).expect(200);
    expect((await editor.get('/api/me').expect(200)).body.displayName).toBe(name);
    const token = await editor.post('/api/tokens').send({ name }).expect(201);
    expect(token.body.name).toBe(name);
    const { body, contentType } = rawMultipart('Übersicht 🎉.png', png(1, 1));
    const uploaded = await editor.post('/api/images').set('Content-Type', contentType).send(body);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.filename).toBe('Übersicht 🎉.png');
  });
});
