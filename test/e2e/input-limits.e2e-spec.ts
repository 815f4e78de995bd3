import { captureLogs, LogCapture } from '../support/log-capture';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createUser, login, signedIn } from '../support/users';

/**
 * Issue 9 items 1 and 5: a JSON body's cost is bounded before it is parsed and validated
 * (docs/auth.md "Input limits"). Each test sends the attack and checks the answer and that
 * nothing was written.
 */
describe('input limits: JSON body budgets (pre-authentication DoS, deep JSON)', () => {
  let t: TestApp;
  let editor: Client;
  let logs: LogCapture;
  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' });
  });
  beforeEach(async () => {
    // The app logs at info here (to see what an attack logs); the capture keeps it off the console.
    logs = captureLogs();
    await t.reset();
    editor = await signedIn(t, 'editor');
  });
  afterEach(() => logs.stop());
  afterAll(() => t.close());

  async function count(table: string): Promise<number> {
    const rows: { n: number | string }[] = await t.dataSource.query(
      `SELECT COUNT(*) AS n FROM ${table}`,
    );
    return Number(rows[0].n);
  }

  function manyMembers(n: number, base: Record<string, unknown> = {}): Record<string, unknown> {
    const body: Record<string, unknown> = { ...base };
    for (let i = 0; i < n; i++) body[`extra${i}`] = i;
    return body;
  }

  /** `{"a":{"a":...}}` nested `depth` levels, as text (JSON.stringify would not mind). */
  function nested(depth: number, inner = '1'): string {
    return '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
  }

  /** Milliseconds one request takes, with its response. */
  async function timed<T>(send: () => Promise<T>): Promise<[number, T]> {
    const start = performance.now();
    const res = await send();
    return [performance.now() - start, res];
  }

  // Timings are the test; the bound is loose for a loaded 2-core CI runner (a few
  // hundred ms on a quiet one) yet far below the unfixed cost: 9 s per attack, 36 s for four.
  const FAST_MS = 15_000;

  it('item 1: 100,000 unknown members on POST /auth/login answer 413 at once; /healthz stays responsive; no session', async () => {
    const user = await createUser(t, 'reader');
    const attack = JSON.stringify(manyMembers(100_000, { username: user.username, password: 'x' }));
    expect(attack.length).toBeGreaterThan(1024 * 1024);
    const sessionsBefore = await count('sessions');
    const attacks = Array.from({ length: 4 }, () =>
      timed(() =>
        t.http().post('/auth/login').set('Content-Type', 'application/json').send(attack),
      ),
    );
    const health = Array.from({ length: 4 }, () => timed(() => t.http().get('/healthz')));
    const attacked = await Promise.all(attacks);
    const healthz = await Promise.all(health);
    for (const [ms, res] of attacked) {
      expect(res.status).toBe(413);
      expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
      expect(res.body).toEqual(problem(413, 'payload_too_large'));
      expect(ms).toBeLessThan(FAST_MS);
    }
    for (const [ms, res] of healthz) {
      expect(res.status).toBe(200);
      expect(ms).toBeLessThan(FAST_MS);
    }
    expect(await count('sessions')).toBe(sessionsBefore);
    // The real credentials still sign in: the budget refuses only what no login needs.
    await login(t, user);
  });

  it('item 1: a small login body with too many members answers 413 too_many_members', async () => {
    const res = await anonymous(t)
      .post('/auth/login')
      .send(manyMembers(40, { username: 'a', password: 'b' }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual(problem(413, 'too_many_members', { limit: 16 }));
  });

  it('item 1: authenticated routes refuse bodies with more members than any page can use (413), nothing written', async () => {
    // Serialised before the clock starts: only kb's work is timed.
    const attack = JSON.stringify(
      manyMembers(100_000, { slug: 'dos/1', title: 'T', content: 'x' }),
    );
    const [ms, res] = await timed(() =>
      editor.post('/api/pages').set('Content-Type', 'application/json').send(attack),
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual(problem(413, 'too_many_members', { limit: 1000 }));
    expect(ms).toBeLessThan(FAST_MS);
    const props: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) props[`p${i}`] = i;
    const res2 = await editor
      .put('/api/variables')
      .send({ variables: Object.fromEntries(Object.keys(props).map((k) => [k, 'v'])) });
    expect(res2.status).toBe(413);
    const res3 = await editor
      .post('/api/pages')
      .send({ slug: 'dos/2', title: 'T', content: 'x', properties: props });
    expect(res3.status).toBe(413);
    expect(await count('pages')).toBe(0);
  });

  it('item 1: under the member budget, unknown members give at most 100 field problems and a count of the rest', async () => {
    const attack = JSON.stringify(manyMembers(900, { slug: 'dos/3', title: 'T' }));
    const [ms, res] = await timed(() =>
      editor.post('/api/pages').set('Content-Type', 'application/json').send(attack),
    );
    expect(res.status).toBe(422);
    expect(ms).toBeLessThan(FAST_MS);
    expect(res.body).toEqual(
      problem(422, 'validation_failed', { errors: expect.any(Array), moreErrors: 800 }),
    );
    expect(res.body.errors).toHaveLength(100);
    expect(res.body.errors[0]).toEqual({
      field: 'extra0',
      code: 'unknown_field',
      message: 'property extra0 should not exist',
    });
    expect(await count('pages')).toBe(0);
  });

  it('item 1: properties and variables over their caps answer one problem each, nothing written', async () => {
    const properties = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, i]));
    const variables = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`v${i}`, 'x']));
    const res = await editor
      .post('/api/pages')
      .send({ slug: 'caps/1', title: 'T', content: 'x', properties, variables });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ field: 'properties', code: 'too_many_properties' }),
      expect.objectContaining({ field: 'variables', code: 'too_many_variables' }),
    ]);
    const admin = await signedIn(t, 'admin');
    const site = await admin.put('/api/variables').send({ variables });
    expect(site.status).toBe(422);
    expect(site.body.errors).toEqual([
      expect.objectContaining({ field: 'variables', code: 'too_many_variables' }),
    ]);
    expect(await count('pages')).toBe(0);
    expect((await admin.get('/api/variables').expect(200)).body.variables).toEqual({});
  });

  it('item 5: 2,500 levels of nesting answer 400 json_too_deep on every JSON route, with no stack trace logged', async () => {
    const deep = nested(2_500);
    // Login reads at most 8 KiB: its attack nests 1,000 levels (5 KB).
    const login = await anonymous(t)
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .send(nested(1_000));
    expect(login.body).toEqual(problem(400, 'json_too_deep', { limit: 4 }));
    const routes: [Client, 'post' | 'put' | 'patch', string][] = [
      [editor, 'post', '/api/pages'],
      [editor, 'put', '/api/drafts/deep'],
      [editor, 'patch', '/api/me'],
      [editor, 'post', '/api/preview'],
    ];
    for (const [client, method, path] of routes) {
      const res = await client
        .request(method, path)
        .set('Content-Type', 'application/json')
        .send(deep);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.body).toEqual(problem(400, 'json_too_deep', { limit: expect.any(Number) }));
    }
    logs.stop();
    const lines = logs.lines();
    expect(lines.filter((l) => l.level === 'error' || l.stack !== undefined)).toEqual([]);
    expect(lines.filter((l) => l.code === 'json_too_deep')).toHaveLength(routes.length + 1);
    expect(await count('pages')).toBe(0);
    expect(await count('drafts')).toBe(0);
  });

  it('item 5: the depth budget is per route: a draft may nest 40 levels, a page body may not', async () => {
    const body = `{"content":"x","state":${nested(39)}}`;
    const page = await editor
      .post('/api/pages')
      .set('Content-Type', 'application/json')
      .send(`{"slug":"d/1","title":"T","properties":${nested(39)}}`);
    expect(page.status).toBe(400);
    expect(page.body).toEqual(problem(400, 'json_too_deep', { limit: 32 }));
    const draft = await editor
      .put('/api/drafts/deep')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(draft.status).toBe(201);
    expect(await count('drafts')).toBe(1);
    expect(await count('pages')).toBe(0);
  });

  it('brackets and commas inside strings do not count', async () => {
    const content = '{'.repeat(5_000) + ','.repeat(5_000);
    const res = await editor.post('/api/pages').send({ slug: 'str/1', title: 'T', content });
    expect(res.status).toBe(201);
    expect(res.body.content).toBe(content);
  });
});
