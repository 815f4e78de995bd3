import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { createTestApp, TestApp } from '../support/test-app';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { SERVER_ROOTS } from '../../src/console/console-routes';
import { inspectRoutes } from '../../src/common/http/route-inventory';

/** What Chromium sends when a person types an address or follows a link. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("kb console");'.repeat(50);

/** The console module with a stand-in build (the real build is tested by the browser suite). */
describe('console: static files, index.html fallback, headers', () => {
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'kb-console-'));

  beforeAll(async () => {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'app-abc123.js'), SCRIPT);
    writeFileSync(join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ KB_CONSOLE_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    '/',
    '/login',
    '/wiki/guides/setup',
    '/edit/a',
    '/tags/ops',
    '/admin/import',
    '/search',
    '/drafts',
    '/account',
    '/wiki',
  ])(
    'answers index.html for the console route %s, revalidated, under the strict CSP',
    async (path) => {
      const res = await t.http().get(path).expect(200);
      expect(res.text).toBe(INDEX);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("img-src 'self' data: https:");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('answers HEAD on a console route with the headers only', async () => {
    const res = await t.http().head('/wiki/a').expect(200);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(INDEX)));
  });

  it('serves hashed assets for a year, immutable, precompressed when accepted', async () => {
    const plain = await t.http().get('/assets/app-abc123.js').set('Accept-Encoding', 'identity');
    expect(plain.status).toBe(200);
    expect(plain.text).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['vary']).toBe('Accept-Encoding');

    const br = await t
      .http()
      .get('/assets/app-abc123.js')
      .set('Accept-Encoding', 'gzip, br')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(br.headers['content-encoding']).toBe('br');
    // The client decoded it; the length on the wire is the compressed file's.
    expect(br.headers['content-length']).toBe(String(brotliCompressSync(SCRIPT).length));
    expect((br.body as Buffer).toString()).toBe(SCRIPT);
  });

  it('serves root files revalidated, and 404 problems for missing or unsafe asset names', async () => {
    const icon = await t.http().get('/favicon.svg').expect(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
    for (const path of ['/assets/missing.js', '/assets/..%2Findex.html', '/assets/sub/app.js']) {
      const res = await t.http().get(path).expect(404);
      expect(res.body).toEqual(problem(404, 'route_not_found'));
    }
  });

  it('leaves /api, /export, /auth, /healthz and other paths to the API', async () => {
    const unknownApi = await t.http().get('/api/nope').expect(404);
    expect(unknownApi.body).toEqual(problem(404, 'route_not_found'));
    expect(unknownApi.headers['content-security-policy']).not.toContain('https:');
    await t.http().get('/api/pages').expect(401);
    await t.http().get('/export/pdf/a').expect(401);
    await t.http().get('/healthz').expect(200, { status: 'ok' });
    await t.http().get('/auth/login').expect(404);
    await t.http().get('/not-a-console-route').expect(404);
    // Only GET and HEAD fall back to the console.
    const post = await t.http().post('/wiki/a').expect(404);
    expect(post.body).toEqual(problem(404, 'route_not_found'));
  });
});

describe('console: browser navigation outside the API', () => {
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'kb-console-'));

  beforeAll(async () => {
    writeFileSync(join(dir, 'index.html'), INDEX);
    t = await createTestApp({ KB_CONSOLE_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/handbook/index', '/team/%C3%BCber-uns', '/not-a-console-route', '/a/b/c/d'])(
    'answers a browser at %s with the console (it says "Not found" or opens the page)',
    async (path) => {
      const res = await t.http().get(path).set('Accept', BROWSER_ACCEPT).expect(200);
      expect(res.text).toBe(INDEX);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self';");
    },
  );

  it.each([undefined, 'application/json', 'application/problem+json', '*/*', 'text/html;q=0'])(
    'keeps the 404 problem for an API client (Accept %p)',
    async (accept) => {
      const req = t.http().get('/handbook/index');
      if (accept !== undefined) req.set('Accept', accept);
      const res = await req.expect(404);
      expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
      expect(res.body).toEqual(problem(404, 'route_not_found'));
    },
  );

  it("keeps the server roots the server's, even for a browser", async () => {
    const api = await t.http().get('/api/nope').set('Accept', BROWSER_ACCEPT).expect(404);
    expect(api.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
    expect(api.body).toEqual(problem(404, 'route_not_found'));
    await t.http().get('/api/pages').set('Accept', BROWSER_ACCEPT).expect(401);
    await t.http().get('/healthz').set('Accept', BROWSER_ACCEPT).expect(200, { status: 'ok' });
    const auth = await t.http().get('/auth/nope').set('Accept', BROWSER_ACCEPT).expect(404);
    expect(auth.body).toEqual(problem(404, 'route_not_found'));
    const post = await t.http().post('/handbook/index').set('Accept', BROWSER_ACCEPT);
    expect(post.status).toBe(404);
    expect(post.body).toEqual(problem(404, 'route_not_found'));
  });

  it('starts every route kb declares under a server root, so none is ever shadowed', () => {
    const roots = new Set(inspectRoutes(t.app).map((r) => r.path.split('/')[1]));
    expect([...roots].filter((root) => !SERVER_ROOTS.includes(root))).toEqual([]);
  });
});

describe('console: not built', () => {
  it('answers 503 console_not_built on console routes, the API still works', async () => {
    const t = await createTestApp({ KB_CONSOLE_DIR: join(tmpdir(), 'kb-no-console-here') });
    try {
      const res = await t.http().get('/wiki/a').expect(503);
      expect(res.body).toEqual(problem(503, 'console_not_built'));
      await t.http().get('/healthz').expect(200);
    } finally {
      await t.close();
    }
  });
});
