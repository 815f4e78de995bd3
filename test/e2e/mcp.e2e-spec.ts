import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AddressInfo } from 'node:net';
import { eventually } from '../support/eventually';
import { createPage, PageJson } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

const TOOLS = [
  'add_comment',
  'create_page',
  'list_backlinks',
  'list_recent',
  'list_tree',
  'move_page',
  'propose_change',
  'read_page',
  'search_pages',
  'update_page',
];

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};
const MCP_ACCEPT = 'application/json, text/event-stream';

/** The problem document a tool error carries as its text. */
function toolProblem(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  const [content] = result.content;
  if (content.type !== 'text') throw new Error(`a tool error with ${content.type} content`);
  return JSON.parse(content.text) as Record<string, unknown>;
}

/** The text of a tool error that is not a kb problem (the SDK refused the arguments). */
function toolErrorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  const [content] = result.content;
  return content.type === 'text' ? content.text : '';
}

describe('MCP server at /mcp', () => {
  let t: TestApp;
  let url: URL;
  const open: McpClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });

  /** The SDK's own client over real HTTP with `client`'s token (or a new one of its user). */
  async function mcpAs(client: Client, token: Record<string, unknown> = {}): Promise<McpClient> {
    const bearer = client.auth.bearer ?? (await client.withToken(token)).auth.bearer!;
    const mcp = new McpClient({ name: 'kb-e2e', version: '1' });
    await mcp.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
      }),
    );
    open.push(mcp);
    return mcp;
  }

  async function call(mcp: McpClient, name: string, args: Record<string, unknown>) {
    return (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  }

  it('initialises and lists the tools with their input and output schemas', async () => {
    const mcp = await mcpAs(await signedIn(t, 'reader'));
    expect(mcp.getServerVersion()).toEqual({ name: 'kb', version: '1' });
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect({
        name: tool.name,
        input: tool.inputSchema.type,
        output: tool.outputSchema?.type,
      }).toEqual({
        name: tool.name,
        input: 'object',
        output: 'object',
      });
      // Arguments the schema does not name are refused.
      expect({ name: tool.name, extra: tool.inputSchema.additionalProperties }).toEqual({
        name: tool.name,
        extra: false,
      });
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('create_page')!.inputSchema.required).toEqual(['slug', 'title']);
    expect(byName.get('update_page')!.inputSchema.required).toEqual(['slug', 'baseRevision']);
    expect(byName.get('search_pages')!.inputSchema.required).toEqual(['q']);
    expect(Object.keys(byName.get('read_page')!.outputSchema!.properties!)).toEqual(
      expect.arrayContaining(['slug', 'title', 'content', 'revision', 'backlinks']),
    );
    const { resourceTemplates } = await mcp.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({
        name: 'page',
        uriTemplate: 'kb://pages/{slug}',
        mimeType: 'text/markdown',
      }),
    ]);
  });

  it('answers read_page and search_pages exactly as the REST API answers the same caller', async () => {
    const editor = await signedIn(t, 'editor');
    await createPage(editor, 'guides/setup', {
      title: 'Setup guide',
      content: '# Setup\n\nInstall the zeppelin engine first.',
      tags: ['ops'],
    });
    await createPage(editor, 'guides/zeppelin', { content: 'More about the zeppelin.' });
    const reader = await (await signedIn(t, 'reader')).withToken();
    const mcp = await mcpAs(reader);

    const rest = await reader.get('/api/pages/guides/setup').expect(200);
    const read = await call(mcp, 'read_page', { slug: 'guides/setup' });
    expect(read.isError).toBeUndefined();
    expect(read.structuredContent).toEqual(rest.body);
    expect(JSON.parse((read.content[0] as { text: string }).text)).toEqual(rest.body);

    const restSearch = await reader.get('/api/search?q=zeppelin').expect(200);
    const search = await call(mcp, 'search_pages', { q: 'zeppelin' });
    expect(search.structuredContent).toEqual(restSearch.body);
    expect(
      (search.structuredContent as { items: PageJson[] }).items.map((i) => i.slug).sort(),
    ).toEqual(['guides/setup', 'guides/zeppelin']);
  });

  it('lists recent pages, the tree and backlinks as the REST API does', async () => {
    const editor = await signedIn(t, 'editor');
    await createPage(editor, 'handbook', { content: '# Handbook' });
    await createPage(editor, 'guides/intro', { content: 'See [the handbook](/handbook).' });
    const mcp = await mcpAs(editor);

    const recent = await call(mcp, 'list_recent', { limit: 1 });
    expect(recent.structuredContent).toEqual(
      (await editor.get('/api/pages?limit=1').expect(200)).body,
    );
    const second = await call(mcp, 'list_recent', {
      limit: 1,
      cursor: (recent.structuredContent as { nextCursor: string }).nextCursor,
    });
    expect((second.structuredContent as { items: PageJson[] }).items.map((i) => i.slug)).toEqual([
      'handbook',
    ]);

    const tree = await call(mcp, 'list_tree', { parent: 'guides' });
    expect(tree.structuredContent).toEqual(
      (await editor.get('/api/tree?parent=guides').expect(200)).body,
    );
    expect((await call(mcp, 'list_tree', {})).structuredContent).toEqual(
      (await editor.get('/api/tree').expect(200)).body,
    );

    const backlinks = await call(mcp, 'list_backlinks', { slug: 'handbook' });
    expect(backlinks.structuredContent).toEqual({
      slug: 'handbook',
      backlinks: [{ slug: 'guides/intro', title: 'Title of guides/intro' }],
    });
    expect((await editor.get('/api/pages/handbook').expect(200)).body.backlinks).toEqual([
      { slug: 'guides/intro', title: 'Title of guides/intro' },
    ]);
  });

  it('creates and updates pages as the caller, with revisions and authorship', async () => {
    const editor = await signedIn(t, 'editor');
    const mcp = await mcpAs(editor);
    const created = await call(mcp, 'create_page', {
      slug: 'notes/mcp',
      title: 'Written by an assistant',
      content: '# Hello',
      tags: ['ai'],
    });
    expect(created.isError).toBeUndefined();
    const stored = (await editor.get('/api/pages/notes/mcp').expect(200)).body as PageJson;
    expect(created.structuredContent).toEqual(stored);
    expect(stored).toEqual(
      expect.objectContaining({
        title: 'Written by an assistant',
        content: '# Hello',
        tags: ['ai'],
        revision: 1,
        updatedBy: editor.user!.username,
      }),
    );

    const updated = await call(mcp, 'update_page', {
      slug: 'notes/mcp',
      baseRevision: 1,
      content: '# Hello again',
    });
    expect(updated.structuredContent).toEqual(
      (await editor.get('/api/pages/notes/mcp').expect(200)).body,
    );
    expect(updated.structuredContent).toEqual(
      expect.objectContaining({ content: '# Hello again', revision: 2 }),
    );
    const revisions = await editor.get('/api/revisions?slug=notes/mcp').expect(200);
    expect(
      (revisions.body.items as PageJson[]).map((r) => [r.revision, r.action, r.author]),
    ).toEqual([
      [2, 'updated', editor.user!.username],
      [1, 'created', editor.user!.username],
    ]);
    // The same events as the REST writes (the feed, and the webhooks it agrees with).
    await eventually(async () => {
      const feed = await editor.get('/api/events').expect(200);
      expect(
        (feed.body.items as PageJson[]).map((e) => [e.type, e.data.slug, e.data.actorId]),
      ).toEqual([
        ['page.created', 'notes/mcp', editor.user!.id],
        ['page.updated', 'notes/mcp', editor.user!.id],
      ]);
    });
  });

  it('answers a stale update_page with a revision_conflict tool error and writes nothing', async () => {
    const editor = await signedIn(t, 'editor');
    await createPage(editor, 'notes/busy', { content: 'first' });
    await editor
      .put('/api/pages/notes/busy')
      .send({ content: 'second', baseRevision: 1 })
      .expect(200);
    const mcp = await mcpAs(editor);

    const stale = await call(mcp, 'update_page', {
      slug: 'notes/busy',
      baseRevision: 1,
      content: 'lost update',
    });
    expect(toolProblem(stale)).toEqual(
      problem(409, 'revision_conflict', { instance: '/mcp', currentRevision: 2 }),
    );
    expect((await editor.get('/api/pages/notes/busy').expect(200)).body).toEqual(
      expect.objectContaining({ content: 'second', revision: 2 }),
    );
  });

  it('moves a page as POST /api/pages/move does: a redirect behind, taken targets refused', async () => {
    const editor = await signedIn(t, 'editor');
    await createPage(editor, 'mcp-move/a', { content: 'A' });
    await createPage(editor, 'mcp-move/b', { content: 'B links [a](/mcp-move/a)' });
    await createPage(editor, 'mcp-move/taken', { content: 'T' });
    const mcp = await mcpAs(editor);

    const taken = await call(mcp, 'move_page', { from: 'mcp-move/a', to: 'mcp-move/taken' });
    expect(toolProblem(taken)).toMatchObject({ status: 409, code: 'slug_taken' });
    await editor.get('/api/pages/mcp-move/a').expect(200);

    const moved = await call(mcp, 'move_page', {
      from: 'mcp-move/a',
      to: 'mcp-move/renamed',
      rewriteLinks: true,
    });
    expect(moved.isError).toBeFalsy();
    expect(moved.structuredContent).toMatchObject({
      dryRun: false,
      moved: [{ from: 'mcp-move/a', to: 'mcp-move/renamed' }],
      rewritten: [{ slug: 'mcp-move/b', revision: 2 }],
    });
    const old = await editor.get('/api/pages/mcp-move/a').expect(308);
    expect(old.headers.location).toBe('/api/pages/mcp-move/renamed');
    expect((await editor.get('/api/pages/mcp-move/b').expect(200)).body.content).toBe(
      'B links [a](/mcp-move/renamed)',
    );
    const reader = await mcpAs(await signedIn(t, 'reader'));
    const refused = await call(reader, 'move_page', { from: 'mcp-move/b', to: 'mcp-move/c' });
    expect(toolProblem(refused)).toEqual(problem(403, 'insufficient_role', { instance: '/mcp' }));
  });

  it('adds comments as the caller, inline on a quote, and refuses mentions that cannot be told', async () => {
    const editor = await signedIn(t, 'editor');
    await createPage(editor, 'mcp-comments', { content: 'Kettles boil at sea level.' });
    const reader = await signedIn(t, 'reader');
    const mcp = await mcpAs(reader);
    const made = await call(mcp, 'add_comment', {
      slug: 'mcp-comments',
      body: 'Not in the mountains.',
      quote: 'boil at sea level',
    });
    expect(made.isError).toBeUndefined();
    const listed = (await reader.get('/api/comments?slug=mcp-comments').expect(200)).body.items;
    expect(listed).toEqual([made.structuredContent]);
    expect(listed[0]).toMatchObject({
      author: expect.objectContaining({ id: reader.user!.id }),
      anchor: expect.objectContaining({ quote: 'boil at sea level' }),
    });
    const refused = await call(mcp, 'add_comment', {
      slug: 'mcp-comments',
      body: '@nobody-at-all',
    });
    expect(toolProblem(refused)).toEqual(
      problem(422, 'mention_not_allowed', { instance: '/mcp', mentions: ['nobody-at-all'] }),
    );
  });

  it("refuses writes to a reader and to a read-scoped token, with kb's problem code", async () => {
    const readerMcp = await mcpAs(await signedIn(t, 'reader'));
    const editor = await signedIn(t, 'editor');
    const readToken = await mcpAs(editor, { scope: 'reader' });
    for (const mcp of [readerMcp, readToken]) {
      const refused = await call(mcp, 'create_page', { slug: 'nope', title: 'Nope' });
      expect(toolProblem(refused)).toEqual(problem(403, 'insufficient_role', { instance: '/mcp' }));
    }
    await createPage(editor, 'kept', { content: 'kept' });
    const update = await call(readToken, 'update_page', {
      slug: 'kept',
      baseRevision: 1,
      content: 'changed',
    });
    expect(toolProblem(update)).toEqual(problem(403, 'insufficient_role', { instance: '/mcp' }));
    await editor.get('/api/pages/nope').expect(404);
    expect((await editor.get('/api/pages/kept').expect(200)).body.revision).toBe(1);
  });

  it('shows no page of a group the caller is not in', async () => {
    await createGroup(t, 'secret');
    const admin = await signedIn(t, 'admin');
    await createPage(admin, 'vault/plan', { content: 'the marmalade plan', groups: ['secret'] });
    await createPage(admin, 'open/plan', { content: 'the public marmalade plan' });
    const outsider = await mcpAs(await signedIn(t, 'editor'));
    const member = await mcpAs(await signedIn(t, 'reader', { groups: ['secret'] }));

    expect(toolProblem(await call(outsider, 'read_page', { slug: 'vault/plan' }))).toEqual(
      problem(404, 'page_not_found', { instance: '/mcp' }),
    );
    const slugs = async (mcp: McpClient) =>
      (
        (await call(mcp, 'search_pages', { q: 'marmalade' })).structuredContent as {
          items: PageJson[];
        }
      ).items
        .map((i) => i.slug)
        .sort();
    expect(await slugs(outsider)).toEqual(['open/plan']);
    expect(await slugs(member)).toEqual(['open/plan', 'vault/plan']);
    expect((await call(member, 'read_page', { slug: 'vault/plan' })).isError).toBeUndefined();
    await expect(outsider.readResource({ uri: 'kb://pages/vault/plan' })).rejects.toThrow(
      /page_not_found/,
    );
  });

  it('reads pages as resources kb://pages/{slug} (the Markdown)', async () => {
    const editor = await signedIn(t, 'editor');
    await createPage(editor, 'guides/setup', { content: '# Setup\n\nSteps.' });
    const mcp = await mcpAs(editor);
    for (const uri of ['kb://pages/guides/setup', 'kb://pages/guides%2Fsetup']) {
      expect(await mcp.readResource({ uri })).toEqual({
        contents: [
          {
            uri,
            mimeType: 'text/markdown',
            text: '# Setup\n\nSteps.',
            _meta: { revision: 1 },
          },
        ],
      });
    }
  });

  it('refuses arguments outside the schema and writes nothing', async () => {
    const editor = await signedIn(t, 'editor');
    const mcp = await mcpAs(editor);
    const cases: [string, Record<string, unknown>][] = [
      ['create_page', { slug: 'x', title: 'X', html: '<p>x</p>' }],
      ['create_page', { slug: 'x' }],
      ['create_page', { slug: 'x', title: 'X', tags: 'not-a-list' }],
      ['update_page', { slug: 'x', content: 'no base revision' }],
      ['read_page', { slug: 'x', extra: true }],
      ['search_pages', { q: 'x', limit: 1000 }],
    ];
    for (const [name, args] of cases) {
      expect({ name, args, text: toolErrorText(await call(mcp, name, args)) }).toEqual({
        name,
        args,
        text: expect.stringContaining('Input validation error'),
      });
    }
    // kb's own field rules run behind the schema, as for POST /api/pages.
    const badSlug = await call(mcp, 'create_page', { slug: 'Bad Slug!', title: 'X' });
    expect(toolProblem(badSlug)).toEqual(
      problem(422, 'validation_failed', {
        instance: '/mcp',
        errors: [expect.objectContaining({ field: 'slug' })],
      }),
    );
    expect((await editor.get('/api/pages').expect(200)).body.items).toEqual([]);
  });

  it('authenticates like the REST API: 401 without credentials, a session works', async () => {
    const res = await anonymous(t)
      .post('/mcp')
      .set('Accept', MCP_ACCEPT)
      .send(INITIALIZE)
      .expect(401);
    expect(res.body).toEqual(problem(401, 'unauthenticated'));
    // The challenge names kb's protected resource metadata (RFC 9728): OAuth discovery starts.
    expect(res.headers['www-authenticate']).toMatch(
      /^Bearer realm="kb", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/,
    );
    await anonymous(t)
      .post('/mcp')
      .set('Authorization', 'Bearer kb_not_a_token')
      .set('Accept', MCP_ACCEPT)
      .send(INITIALIZE)
      .expect(401);
    const sdk = new McpClient({ name: 'kb-e2e', version: '1' });
    await expect(sdk.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow();

    const session = await signedIn(t, 'reader');
    const answer = await session
      .post('/mcp')
      .set('Accept', MCP_ACCEPT)
      .send(INITIALIZE)
      .expect(200);
    expect(answer.body).toEqual(
      expect.objectContaining({
        jsonrpc: '2.0',
        id: 1,
        result: expect.objectContaining({ serverInfo: { name: 'kb', version: '1' } }),
      }),
    );
    // A cookie-authenticated POST from another site is refused as on every other route.
    await t
      .http()
      .post('/mcp')
      .set('Cookie', session.auth.cookie!)
      .set('Origin', 'https://evil.example')
      .set('Accept', MCP_ACCEPT)
      .send(INITIALIZE)
      .expect(403);
    const stream = await session.get('/mcp').expect(405);
    expect(stream.body).toEqual(problem(405, 'method_not_allowed'));
    expect(stream.headers.allow).toBe('POST');
    const end = await session.delete('/mcp').expect(405);
    expect(end.body).toEqual(problem(405, 'method_not_allowed'));
  });
  it('propose_change makes a change request as the caller, hiding pages they may not see', async () => {
    const admin = await signedIn(t, 'admin');
    await createGroup(t, 'staff');
    await createPage(admin, 'mcp-cr/a', { content: 'Old.' });
    await createPage(admin, 'mcp-cr/secret', { groups: ['staff'] });
    const reader = await mcpAs(await signedIn(t, 'reader'));
    const made = await call(reader, 'propose_change', {
      title: 'From an assistant',
      changes: [{ slug: 'mcp-cr/a', action: 'update', content: 'New.' }],
    });
    expect(made.isError).toBeFalsy();
    expect(made.structuredContent).toMatchObject({
      state: 'open',
      url: expect.stringMatching(/^\/change-requests\/\d+$/),
      approvalsMissing: 0,
    });
    const hidden = await call(reader, 'propose_change', {
      title: 'Peek',
      changes: [{ slug: 'mcp-cr/secret', action: 'update', content: 'x' }],
    });
    expect(toolProblem(hidden)).toMatchObject({ status: 404, code: 'page_not_found' });
    expect((await admin.get('/api/pages/mcp-cr/a').expect(200)).body.content).toBe('Old.');
  });
});

describe('MCP server switched off (MCP_ENABLED=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ MCP_ENABLED: 'false' });
  });
  afterAll(() => t.close());

  it('answers 404 at /mcp', async () => {
    const editor = await (await signedIn(t, 'editor')).withToken();
    const res = await editor.post('/mcp').set('Accept', MCP_ACCEPT).send(INITIALIZE).expect(404);
    expect(res.body).toEqual(problem(404, 'route_not_found'));
    await editor.get('/api/recent').expect(200);
  });
});

describe('MCP tool calls spend the rate limits of the REST API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_READ: '3/60s' });
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => t.close());

  it('counts reads through MCP and REST against one quota per person', async () => {
    const editor = await signedIn(t, 'editor');
    await createPage(editor, 'quota');
    const bearer = (await editor.withToken()).auth.bearer!;
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const mcp = new McpClient({ name: 'kb-e2e', version: '1' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
      }),
    );
    try {
      await editor.get('/api/pages/quota').expect(200);
      for (let i = 0; i < 2; i++) {
        const read = (await mcp.callTool({
          name: 'read_page',
          arguments: { slug: 'quota' },
        })) as CallToolResult;
        expect(read.isError).toBeUndefined();
      }
      const refused = (await mcp.callTool({
        name: 'read_page',
        arguments: { slug: 'quota' },
      })) as CallToolResult;
      expect(toolProblem(refused)).toEqual(problem(429, 'rate_limited', { instance: '/mcp' }));
      await editor.get('/api/pages/quota').expect(429);
    } finally {
      await mcp.close();
    }
  });
});
