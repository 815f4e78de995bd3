import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AddressInfo } from 'node:net';
import { zipSync, unzipSync, strToU8 } from 'fflate';
import { binary } from '../support/export-fixtures';
import { postImport } from '../support/import-helpers';
import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

async function rows(t: TestApp, table: string): Promise<number> {
  const [row] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row.n);
}

const INSIDE = ['docs/team-a', 'docs/team-a/intro', 'docs/team-a/sub/deep'];
const OUTSIDE = ['docs/team-b/secret', 'docs/team-a-old/x', 'docs', 'top'];

/** Every slug a JSON answer mentions, as a string test: nothing outside may appear. */
function mentionsOutside(body: unknown): string[] {
  const text = JSON.stringify(body);
  return OUTSIDE.filter((slug) =>
    slug.includes('/') ? text.includes(slug) : text.includes(`"${slug}"`),
  );
}

describe('path-scoped tokens (paths and permissions)', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let url: URL;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    for (const slug of [...INSIDE, ...OUTSIDE])
      await createPage(admin, slug, {
        title: `Zebra ${slug}`,
        content: `# Zebra\n\nzebra text of ${slug}, see [top](/top).`,
        tags: [slug.replace(/\//g, '-')],
      });
  });

  async function scoped(client: Client, body: Record<string, unknown> = {}): Promise<Client> {
    return client.withToken({ paths: ['docs/team-a/**'], ...body });
  }

  it('creates, lists and checks paths and permissions on the token', async () => {
    const res = await editor
      .post('/api/tokens')
      .send({
        name: 'ci',
        paths: [' /Docs/Team-A/** ', 'handbook', 'docs/team-a/**'],
        permissions: ['write', 'read'],
      })
      .expect(201);
    expect(res.body).toMatchObject({
      paths: ['docs/team-a/**', 'handbook'],
      permissions: ['read', 'write'],
    });
    const list = await editor.get('/api/tokens').expect(200);
    expect(list.body.items[0]).toMatchObject({
      paths: ['docs/team-a/**', 'handbook'],
      permissions: ['read', 'write'],
    });
    const plain = await editor.post('/api/tokens').send({ name: 'plain' }).expect(201);
    expect(plain.body).toMatchObject({ paths: null, permissions: null });

    for (const bad of ['docs/../secret/**', 'docs/*', 'a//b', '**/x', '', '%2e%2e/x'])
      expect(
        (await editor.post('/api/tokens').send({ name: 'bad', paths: [bad] })).status,
      ).toBeGreaterThanOrEqual(400);
    const dots = await editor
      .post('/api/tokens')
      .send({ name: 'bad', paths: ['docs/team-a/../../top/**'] })
      .expect(422);
    expect(dots.body.errors).toEqual([
      expect.objectContaining({ field: 'paths.0', code: 'invalid_path_pattern' }),
    ]);
    const verbs = await editor
      .post('/api/tokens')
      .send({ name: 'bad', permissions: ['read', 'delete'] })
      .expect(422);
    expect(verbs.body.errors[0].field).toBe('permissions');
    expect(await rows(t, 'access_tokens')).toBe(2);
  });

  it('reads only within its paths: pages, lists, search, tree, tags, graph, events, exports', async () => {
    const token = await scoped(admin);
    for (const slug of INSIDE) await token.get(`/api/pages/${slug}`).expect(200);
    for (const slug of OUTSIDE)
      expect((await token.get(`/api/pages/${slug}`).expect(404)).body).toEqual(
        problem(404, 'page_not_found'),
      );
    // Slug tricks: dot segments and encoded slashes name the page they normalise to, or none.
    for (const trick of [
      '/api/pages/docs/team-a/..%2F..%2Ftop',
      '/api/pages/docs%2Fteam-a%2F..%2Fteam-b%2Fsecret',
      '/api/pages/docs/team-a/%2e%2e/team-b/secret',
      '/api/pages/docs/team-a/../team-b/secret',
      '/api/pages/DOCS/TEAM-B/SECRET',
    ])
      expect([404, 400, 422]).toContain((await token.get(trick)).status);
    expect((await token.get('/api/pages/docs/team-a/intro/raw').expect(200)).text).toContain(
      'zebra text of docs/team-a/intro',
    );
    await token.get('/api/pages/top/raw').expect(404);

    const recent = await token.get('/api/recent').expect(200);
    expect(recent.body.items.map((p: { slug: string }) => p.slug).sort()).toEqual(INSIDE);
    const list = await token.get('/api/pages').expect(200);
    expect(list.body.items.map((p: { slug: string }) => p.slug).sort()).toEqual(INSIDE);
    const search = await token.get('/api/search?q=zebra').expect(200);
    expect(search.body.items.map((p: { slug: string }) => p.slug).sort()).toEqual(INSIDE);
    expect(mentionsOutside(search.body)).toEqual([]);
    const top = await token.get('/api/tree').expect(200);
    expect(top.body.items.map((n: { name: string }) => n.name)).toEqual(['docs']);
    const docs = await token.get('/api/tree?parent=docs').expect(200);
    expect(docs.body.items.map((n: { name: string }) => n.name)).toEqual(['team-a']);
    const tags = await token.get('/api/tags').expect(200);
    expect(tags.body.items.map((tag: { name: string }) => tag.name).sort()).toEqual(
      INSIDE.map((s) => s.replace(/\//g, '-')).sort(),
    );
    const graph = await token.get('/api/graph').expect(200);
    expect(mentionsOutside(graph.body)).toEqual([]);
    const events = await token.get('/api/events').expect(200);
    expect(events.body.items.length).toBe(INSIDE.length);
    expect(mentionsOutside(events.body)).toEqual([]);
    // The same admin's session sees everything, so the filter is the token's.
    const all = await admin.get('/api/events').expect(200);
    expect(all.body.items.length).toBeGreaterThanOrEqual(INSIDE.length + OUTSIDE.length);

    const archive = await token
      .post('/api/export/archive')
      .send({})
      .buffer(true)
      .parse(binary)
      .expect(200);
    const files = Object.keys(unzipSync(new Uint8Array(archive.body as Buffer)));
    expect(files.filter((f) => f.endsWith('.md')).sort()).toEqual(
      INSIDE.map((s) => `${s}.md`).sort(),
    );
    await token.get('/api/export/pages/docs/team-a/intro').expect(200);
    await token.get('/api/export/pages/top').expect(404);
    // Webhooks receive every page's events: not for a path-scoped token.
    expect((await token.get('/api/webhooks').expect(403)).body).toEqual(
      problem(403, 'whole_wiki_route'),
    );

    // Redirects (admin) and the review list keep to the paths too.
    await admin.post('/api/pages/move').send({ from: 'top', to: 'top-moved' }).expect(200);
    await admin
      .post('/api/pages/move')
      .send({ from: 'docs/team-a/intro', to: 'docs/team-a/intro2' })
      .expect(200);
    const redirects = await token.get('/api/redirects').expect(200);
    expect(redirects.body.items.map((r: { from: string }) => r.from)).toEqual([
      'docs/team-a/intro',
    ]);
    await token.delete('/api/redirects?from=top').expect(403);
    await admin.get('/api/pages/top').redirects(0).expect(308);
    const due = await token.get('/api/review-due').expect(200);
    expect(mentionsOutside(due.body)).toEqual([]);
  });

  it('changes nothing outside its paths: create, update, move out, bin, restore, change requests', async () => {
    const token = await scoped(admin);
    await token
      .post('/api/pages')
      .send({ slug: 'docs/team-a/new', title: 'New', content: 'x' })
      .expect(201);
    for (const slug of ['docs/team-b/new', 'docs/team-a-old/new', 'docs/new', 'new'])
      expect(
        (await token.post('/api/pages').send({ slug, title: 'No', content: 'x' }).expect(403)).body,
      ).toEqual(problem(403, 'outside_token_paths', { slug }));
    // A dot segment in the slug is refused as a slug, never resolved to somewhere else.
    await token
      .post('/api/pages')
      .send({ slug: 'docs/team-a/../team-b/evil', title: 'No', content: 'x' })
      .expect(422);

    await token.put('/api/pages/top').send({ content: 'owned', baseRevision: 1 }).expect(404);
    // Renaming a page out of the paths by an update is refused.
    expect(
      (
        await token
          .put('/api/pages/docs/team-a/intro')
          .send({ slug: 'top2', baseRevision: 1 })
          .expect(403)
      ).body,
    ).toEqual(problem(403, 'outside_token_paths', { slug: 'top2' }));
    // A move out of the paths (of one page or a folder) and a move into them from outside.
    for (const body of [
      { from: 'docs/team-a/intro', to: 'docs/team-b/intro' },
      { from: 'docs/team-a/sub', to: 'elsewhere', subtree: true },
    ])
      expect((await token.post('/api/pages/move').send(body).expect(403)).body).toEqual(
        problem(403, 'outside_token_paths', { slug: expect.any(String) }),
      );
    await token
      .post('/api/pages/move')
      .send({ from: 'docs/team-b/secret', to: 'docs/team-a/stolen' })
      .expect(404);
    await token.delete('/api/pages/top').expect(403);
    await token.delete('/api/pages/docs/team-a/intro').expect(204);
    // Another page binned by the session: outside the token's paths, so not restorable by it.
    await admin.delete('/api/pages/top').expect(204);
    const bin = await token.get('/api/bin').expect(200);
    expect(bin.body.items.map((p: { slug: string }) => p.slug)).toEqual(['docs/team-a/intro']);
    const topId = (await admin.get('/api/bin').expect(200)).body.items.find(
      (p: { slug: string }) => p.slug === 'top',
    ).id as string;
    await token.post(`/api/bin/${topId}/restore`).send({}).expect(403);
    await token
      .post('/api/change-requests')
      .send({
        title: 'Sneak',
        changes: [{ action: 'create', slug: 'docs/team-b/cr', title: 'x', content: 'x' }],
      })
      .expect(403);

    for (const slug of OUTSIDE.filter((s) => s !== 'top')) {
      const page = await admin.get(`/api/pages/${slug}`).expect(200);
      expect(page.body.revision).toBe(1);
    }
    await admin.get('/api/pages/docs/team-b/new').expect(404);
    await admin.get('/api/pages/top2').expect(404);
    expect(await rows(t, 'change_requests')).toBe(0);
  });

  it('imports only under a prefix within its paths, refused before anything is written', async () => {
    const token = await scoped(admin, { permissions: ['read', 'import'] });
    const files = [
      {
        name: 'site.zip',
        data: Buffer.from(zipSync({ 'page.md': strToU8('# Imported\n\nhello') })),
      },
    ];
    const before = await rows(t, 'pages');
    for (const prefix of [undefined, 'docs', 'docs/team-b', 'docs/team-a-old'])
      expect(
        (await postImport(token, { format: 'markdown', files, prefix }).expect(403)).body,
      ).toEqual(problem(403, 'outside_token_paths', { slug: prefix ?? '' }));
    await postImport(token, {
      format: 'markdown',
      files,
      prefix: 'docs',
      fields: { mode: 'mirror' },
    }).expect(403);
    expect(await rows(t, 'pages')).toBe(before);
    await postImport(token, { format: 'markdown', files, prefix: 'docs/team-a/imported' }).expect(
      200,
    );
    await admin.get('/api/pages/docs/team-a/imported/page').expect(200);
    // import is its own verb: a write token may not import, an import token may not write.
    await token.post('/api/pages').send({ slug: 'docs/team-a/w', title: 'w' }).expect(403);
    const writer = await scoped(admin, { permissions: ['read', 'write'] });
    expect(
      (await postImport(writer, { format: 'markdown', files, prefix: 'docs/team-a/x' }).expect(403))
        .body,
    ).toEqual(problem(403, 'token_permission_missing'));
  });

  it('enforces verbs: a read token writes nothing, a write token without read reads nothing', async () => {
    const reader = await admin.withToken({ permissions: ['read'] });
    await reader.get('/api/pages/top').expect(200);
    expect(
      (await reader.post('/api/pages').send({ slug: 'x', title: 'x' }).expect(403)).body,
    ).toEqual(problem(403, 'token_permission_missing'));
    await reader
      .post('/api/batch')
      .send({ operations: [{ op: 'bin', slug: 'top' }] })
      .expect(403);
    const commenter = await editor.withToken({ permissions: ['read', 'comment'] });
    await commenter.post('/api/comments').send({ slug: 'top', body: 'Hello' }).expect(201);
    await commenter.put('/api/pages/top').send({ content: 'x', baseRevision: 1 }).expect(403);
    const blind = await editor.withToken({ permissions: ['write'] });
    expect((await blind.get('/api/pages/top').expect(403)).body).toEqual(
      problem(403, 'token_permission_missing'),
    );
  });

  it('limits a batch: an operation outside the paths fails the batch, naming its index', async () => {
    const token = await scoped(editor);
    const res = await token
      .post('/api/batch')
      .send({
        operations: [
          { op: 'create', slug: 'docs/team-a/b1', title: 'B1' },
          { op: 'metadata', slug: 'docs/team-a/intro', tags: ['x'] },
          { op: 'create', slug: 'docs/team-b/b2', title: 'B2' },
        ],
      })
      .expect(403);
    expect(res.body).toEqual(
      problem(403, 'outside_token_paths', { index: 2, op: 'create', slug: 'docs/team-b/b2' }),
    );
    await admin.get('/api/pages/docs/team-a/b1').expect(404);
    expect((await admin.get('/api/pages/docs/team-a/intro').expect(200)).body.revision).toBe(1);
    const moveOut = await token
      .post('/api/batch')
      .send({ operations: [{ op: 'move', slug: 'docs/team-a/intro', to: 'top-level' }] })
      .expect(403);
    expect(moveOut.body).toMatchObject({ code: 'outside_token_paths', index: 0 });
  });

  it('limits MCP tools and resources to its paths and verbs', async () => {
    const token = await scoped(editor, { permissions: ['read'] });
    const mcp = new McpClient({ name: 'scope', version: '1' });
    await mcp.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${token.auth.bearer}` } },
      }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        (await mcp.callTool({ name, arguments: args })) as CallToolResult;
      const inside = await call('read_page', { slug: 'docs/team-a/intro' });
      expect(inside.isError).toBeUndefined();
      const outside = await call('read_page', { slug: 'top' });
      expect(JSON.parse((outside.content[0] as { text: string }).text)).toMatchObject({
        code: 'page_not_found',
      });
      const search = await call('search_pages', { q: 'zebra' });
      expect(
        (search.structuredContent!.items as { slug: string }[]).map((i) => i.slug).sort(),
      ).toEqual(INSIDE);
      const recent = await call('list_recent', {});
      expect(mentionsOutside(recent.structuredContent)).toEqual([]);
      const created = await call('create_page', { slug: 'docs/team-a/mcp', title: 'M' });
      expect(JSON.parse((created.content[0] as { text: string }).text)).toMatchObject({
        code: 'token_permission_missing',
      });
      await expect(mcp.readResource({ uri: 'kb://pages/top' })).rejects.toThrow(/not_found/);
      const resource = await mcp.readResource({ uri: 'kb://pages/docs/team-a/intro' });
      expect((resource.contents[0] as { text: string }).text).toContain('zebra text');
    } finally {
      await mcp.close();
    }
    const writer = await scoped(editor);
    const mcp2 = new McpClient({ name: 'scope', version: '1' });
    await mcp2.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${writer.auth.bearer}` } },
      }),
    );
    try {
      const out = (await mcp2.callTool({
        name: 'create_page',
        arguments: { slug: 'docs/team-b/mcp', title: 'M' },
      })) as CallToolResult;
      expect(JSON.parse((out.content[0] as { text: string }).text)).toMatchObject({
        code: 'outside_token_paths',
      });
      const moved = (await mcp2.callTool({
        name: 'move_page',
        arguments: { from: 'docs/team-a/intro', to: 'docs/team-b/intro' },
      })) as CallToolResult;
      expect(JSON.parse((moved.content[0] as { text: string }).text)).toMatchObject({
        code: 'outside_token_paths',
      });
    } finally {
      await mcp2.close();
    }
    await admin.get('/api/pages/docs/team-b/mcp').expect(404);
    await admin.get('/api/pages/docs/team-a/intro').expect(200);
  });
});
