import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { AddressInfo } from 'node:net';
import { eventually } from '../support/eventually';
import { createPage, updatePage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

const MCP_ACCEPT = 'application/json, text/event-stream';
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

describe('MCP sessions, resource subscriptions and the administrators’ settings', () => {
  let t: TestApp;
  let url: URL;
  const open: McpClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({ EVENT_STREAM_POLL_MS: '50' });
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close().catch(() => undefined)));
  });

  async function mcpAs(client: Client, token: Record<string, unknown> = {}) {
    const bearer = client.auth.bearer ?? (await client.withToken(token)).auth.bearer!;
    const mcp = new McpClient({ name: 'kb-e2e', version: '1' });
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    });
    await mcp.connect(transport);
    open.push(mcp);
    const updates: string[] = [];
    mcp.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    return { mcp, transport, updates, bearer };
  }

  it('notifies a subscribed client of changes to its page, and only of what it may see', async () => {
    const admin = await signedIn(t, 'admin');
    await createGroup(t, 'staff');
    await createPage(admin, 'sub/open', { content: 'v1' });
    await createPage(admin, 'sub/other', { content: 'v1' });
    await createPage(admin, 'sub/secret', { content: 'v1', groups: ['staff'] });
    const reader = await signedIn(t, 'reader');
    const { mcp, transport, updates } = await mcpAs(reader);
    expect(transport.sessionId).toEqual(expect.any(String));
    expect(mcp.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });

    await mcp.subscribeResource({ uri: 'kb://pages/sub/open' });
    // A page the caller may not read cannot be subscribed to.
    await expect(mcp.subscribeResource({ uri: 'kb://pages/sub/secret' })).rejects.toThrow(
      /page_not_found/,
    );
    await expect(mcp.subscribeResource({ uri: 'kb://pages/nowhere' })).rejects.toThrow(
      /page_not_found/,
    );
    await updatePage(admin, 'sub/other', { content: 'v2' });
    await updatePage(admin, 'sub/secret', { content: 'v2' });
    await updatePage(admin, 'sub/open', { content: 'v2' });
    await eventually(() => expect(updates).toEqual(['kb://pages/sub/open']));
    const read = await mcp.readResource({ uri: 'kb://pages/sub/open' });
    expect((read.contents[0] as { text: string }).text).toBe('v2');

    // The page leaves the reader's sight: taken into a group they are not in. No notice of
    // what happens to it after that.
    await updatePage(admin, 'sub/open', { groups: ['staff'] });
    await eventually(() => expect(updates.length).toBeGreaterThanOrEqual(1));
    const before = updates.length;
    await updatePage(admin, 'sub/open', { content: 'v4 secret' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(updates.length).toBe(before);

    await mcp.unsubscribeResource({ uri: 'kb://pages/sub/open' });
    await updatePage(admin, 'sub/open', { groups: [] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates.length).toBe(before);
  });

  it('keeps a session to its owner: another person’s session id is not found', async () => {
    const alice = await signedIn(t, 'reader');
    const bob = await (await signedIn(t, 'reader')).withToken();
    const { transport, bearer } = await mcpAs(alice);
    const sessionId = transport.sessionId!;
    for (const method of ['post', 'get', 'delete'] as const) {
      const req = bob[method]('/mcp').set('Accept', MCP_ACCEPT).set('Mcp-Session-Id', sessionId);
      const res = await (
        method === 'post' ? req.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) : req
      ).expect(404);
      expect(res.body).toEqual(problem(404, 'mcp_session_not_found'));
    }
    // The owner's own (other) token may use it; DELETE ends it.
    const owner = new Client(t, { bearer }, alice.user);
    const listed = await owner
      .post('/mcp')
      .set('Accept', MCP_ACCEPT)
      .set('Mcp-Session-Id', sessionId)
      .set('Mcp-Protocol-Version', '2025-06-18')
      .send({ jsonrpc: '2.0', id: 3, method: 'tools/list' })
      .expect(200);
    expect(listed.body.result.tools.length).toBeGreaterThan(0);
    await owner
      .delete('/mcp')
      .set('Mcp-Session-Id', sessionId)
      .set('Mcp-Protocol-Version', '2025-06-18')
      .expect(200);
    await owner
      .post('/mcp')
      .set('Accept', MCP_ACCEPT)
      .set('Mcp-Session-Id', sessionId)
      .send({ jsonrpc: '2.0', id: 4, method: 'tools/list' })
      .expect(404);
    // Without a session id, GET and DELETE are 405.
    await owner.get('/mcp').expect(405);
  });

  it('lets administrators turn the server off and choose its tools', async () => {
    const admin = await signedIn(t, 'admin');
    const editor = await signedIn(t, 'editor');
    expect((await admin.get('/api/mcp/settings').expect(200)).body).toEqual({
      enabled: true,
      tools: expect.arrayContaining(['search_pages', 'read_page', 'create_page']),
      available: expect.arrayContaining(['move_page']),
      configured: true,
    });
    await editor.get('/api/mcp/settings').expect(403);
    await editor.put('/api/mcp/settings').send({ enabled: false }).expect(403);
    await (await admin.withToken()).put('/api/mcp/settings').send({ enabled: false }).expect(200);
    await admin.put('/api/mcp/settings').send({ enabled: true }).expect(200);
    expect(
      (
        await admin
          .put('/api/mcp/settings')
          .send({ tools: ['read_page', 'drop_tables'] })
          .expect(422)
      ).body.errors[0].field,
    ).toBe('tools');

    const { mcp } = await mcpAs(editor);
    await createPage(admin, 'tools/a');
    const offered = await admin
      .put('/api/mcp/settings')
      .send({ tools: ['read_page', 'search_pages'] })
      .expect(200);
    expect(offered.body).toMatchObject({ enabled: true, tools: ['search_pages', 'read_page'] });
    expect((await admin.get('/api/mcp/settings').expect(200)).body.tools).toEqual([
      'search_pages',
      'read_page',
    ]);
    // A session made before the change: a tool turned off is refused.
    const late = (await mcp.callTool({
      name: 'create_page',
      arguments: { slug: 'tools/b', title: 'B' },
    })) as CallToolResult;
    expect(JSON.parse((late.content[0] as { text: string }).text)).toMatchObject({
      code: 'tool_disabled',
    });
    await admin.get('/api/pages/tools/b').expect(404);
    // A new session lists only the tools offered.
    const { mcp: fresh } = await mcpAs(editor);
    const { tools } = await fresh.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search_pages', 'read_page']);
    const unknown = (await fresh.callTool({
      name: 'create_page',
      arguments: { slug: 'tools/c', title: 'C' },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    await admin.get('/api/pages/tools/c').expect(404);

    // Off: /mcp answers 404 mcp_disabled to everyone, sessions included.
    await admin.put('/api/mcp/settings').send({ enabled: false }).expect(200);
    const token = await editor.withToken();
    const off = await token.post('/mcp').set('Accept', MCP_ACCEPT).send(INITIALIZE).expect(404);
    expect(off.body).toEqual(problem(404, 'mcp_disabled'));
    await expect(fresh.listTools()).rejects.toThrow();
    await admin.put('/api/mcp/settings').send({ enabled: true }).expect(200);
    await token.post('/mcp').set('Accept', MCP_ACCEPT).send(INITIALIZE).expect(200);
  });
});
