import WebSocket from 'ws';
import { CollabClient, rawUpgrade } from '../support/collab-client';
import { eventually } from '../support/eventually';
import { createPage } from '../support/pages';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

describe('/collab: live co-editing over WebSocket', () => {
  let t: TestApp;
  let url: string;
  let origin: string;
  let alice: Client;
  let bob: Client;
  let reader: Client;
  let outsider: Client;
  const clients: CollabClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      COLLAB_SAVE_IDLE_SECONDS: '3600',
      COLLAB_MAX_MESSAGE_BYTES: '4096',
    });
    await t.app.listen(0, '127.0.0.1');
    url = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    origin = url;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'staff');
    alice = await signedIn(t, 'editor', { groups: ['staff'] });
    bob = await signedIn(t, 'editor', { groups: ['staff'] });
    reader = await signedIn(t, 'reader', { groups: ['staff'] });
    outsider = await signedIn(t, 'editor');
  });
  afterEach(() => clients.splice(0).forEach((c) => c.destroy()));

  function join(client: Client, slug: string, name: string, auth = {}): CollabClient {
    const c = new CollabClient(url, slug, { cookie: client.auth.cookie, origin, ...auth }, name);
    clients.push(c);
    return c;
  }

  async function page(slug: string, extra: Record<string, unknown> = {}) {
    return createPage(alice, slug, { content: 'First line\n', groups: ['staff'], ...extra });
  }

  it('syncs two editors both ways and shows who is there by the names kb knows', async () => {
    const id = 'live/one';
    await page(id);
    const a = join(alice, id, 'spoofed name');
    const b = join(bob, id, 'another');
    await eventually(() => expect(a.synced && b.synced).toBe(true));
    expect(a.text.toString()).toBe('First line\n');
    a.type(0, 'Alice: ');
    b.type(b.text.length, 'Bob was here\n');
    await eventually(() => {
      expect(a.text.toString()).toBe('Alice: First line\nBob was here\n');
      expect(b.text.toString()).toBe(a.text.toString());
    });
    // Each sees the other under the name kb knows, whatever the client claimed.
    await eventually(() => expect(a.names()).toEqual([bob.user!.username]));
    await eventually(() => expect(b.names()).toEqual([alice.user!.username]));
    const { body } = await reader.get(`/api/collab?slug=${id}`).expect(200);
    expect(body).toEqual({ editing: 2 });
    const metrics = (await t.http().get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^kb_collab_documents 1$/m);
    expect(metrics).toMatch(/^kb_collab_connections 2$/m);
    expect(metrics).toMatch(/^kb_collab_updates_total [1-9]\d*$/m);
    expect(metrics).toMatch(/^kb_collab_persistence_lag_seconds \d/m);
  });

  it('refuses no session, another Origin and a page the person cannot see; a reader follows read-only', async () => {
    const id = 'live/guarded';
    await page(id);
    const at = `${url.replace(/^http/, 'ws')}/collab/${id}`;
    const none = await rawUpgrade(at, { origin });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ status: 401, code: 'unauthorized' });
    const foreign = await rawUpgrade(at, {
      cookie: alice.auth.cookie,
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ code: 'cross_origin_refused' });
    const hidden = await rawUpgrade(at, { cookie: outsider.auth.cookie, origin });
    expect(hidden.status).toBe(403);
    expect(JSON.parse(hidden.body)).toMatchObject({ code: 'page_not_visible' });
    const badToken = await rawUpgrade(at, { bearer: 'kb_nothing' });
    expect(badToken.status).toBe(401);

    const a = join(alice, id, 'a');
    const r = join(reader, id, 'r');
    await eventually(() => expect(a.synced && r.synced).toBe(true));
    await eventually(() => expect(r.notices).toContainEqual({ type: 'readOnly' }));
    r.type(0, 'reader typing ');
    a.type(0, 'editor typing ');
    await eventually(() => expect(r.text.toString()).toContain('editor typing'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(a.text.toString()).toBe('editor typing First line\n');
  });

  it('closes the connection of a malformed update with a reason and leaves the page intact', async () => {
    const id = 'live/robust';
    await page(id);
    const a = join(alice, id, 'a');
    await eventually(() => expect(a.synced).toBe(true));
    const raw = await rawUpgrade(`${url.replace(/^http/, 'ws')}/collab/${id}`, {
      cookie: bob.auth.cookie,
      origin,
    });
    expect(raw.status).toBe(101);
    const ws = raw.ws as WebSocket;
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    // A sync message of type "update" whose bytes are no Yjs update.
    ws.send(Buffer.from([0, 2, 8, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3]));
    expect(await closed).toEqual({ code: 1007, reason: 'malformed message' });
    // A message over COLLAB_MAX_MESSAGE_BYTES closes its connection too.
    const big = await rawUpgrade(`${url.replace(/^http/, 'ws')}/collab/${id}`, {
      cookie: bob.auth.cookie,
      origin,
    });
    const bigWs = big.ws as WebSocket;
    const bigClosed = new Promise<{ code: number; reason: string }>((resolve) =>
      bigWs.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    bigWs.send(Buffer.alloc(5000, 1));
    expect(await bigClosed).toEqual({ code: 1009, reason: 'message too large' });
    a.type(a.text.length, 'still fine\n');
    await eventually(async () => {
      const b = join(bob, id, 'b');
      await eventually(() => expect(b.synced).toBe(true));
      expect(b.text.toString()).toBe('First line\nstill fine\n');
    });
    const { body } = await alice.get('/api/pages/live/robust').expect(200);
    expect(body.content).toBe('First line\n');
  });

  it('applies an API PUT to the live document as a diff and saves with co-authors', async () => {
    const id = 'live/api';
    const { revision } = await page(id, { content: 'alpha\nbeta\ngamma\n' });
    const a = join(alice, id, 'a');
    const b = join(bob, id, 'b');
    await eventually(() => expect(a.synced && b.synced).toBe(true));
    a.type(5, ' typed by alice');
    await eventually(() => expect(b.text.toString()).toContain('typed by alice'));
    // Someone who is not in the session writes through the API.
    const carol = await signedIn(t, 'editor', { groups: ['staff'] });
    await carol
      .put('/api/pages/live/api')
      .send({ content: 'alpha\nbeta\ngamma from the API\n', baseRevision: revision })
      .expect(200);
    await eventually(() => {
      expect(a.text.toString()).toBe('alpha typed by alice\nbeta\ngamma from the API\n');
      expect(b.text.toString()).toBe(a.text.toString());
    });
    b.type(0, '# ');
    await eventually(() => expect(a.text.toString().startsWith('# alpha')).toBe(true));
    b.save();
    await eventually(() => expect(a.notices.some((n) => n.type === 'saved')).toBe(true));
    const { body: current } = await alice.get('/api/pages/live/api').expect(200);
    expect(current.content).toBe('# alpha typed by alice\nbeta\ngamma from the API\n');
    const { body: list } = await alice.get('/api/revisions?slug=live/api').expect(200);
    expect(list.items[0]).toMatchObject({
      revision: revision + 2,
      author: bob.user!.username,
      coAuthors: [alice.user!.username],
    });
    expect(list.items[1]).toMatchObject({ author: carol.user!.username, coAuthors: [] });
  });

  it('writes a revision when the last editor leaves, and ends the session when the page is binned', async () => {
    const id = 'live/leave';
    await page(id);
    const a = join(alice, id, 'a');
    await eventually(() => expect(a.synced).toBe(true));
    a.type(0, 'Left behind: ');
    await new Promise((resolve) => setTimeout(resolve, 200));
    a.destroy();
    await eventually(async () => {
      const { body } = await alice.get('/api/pages/live/leave').expect(200);
      expect(body.content).toBe('Left behind: First line\n');
      expect(body.revision).toBe(2);
    });
    const b = join(bob, id, 'b');
    await eventually(() => expect(b.synced).toBe(true));
    expect(b.text.toString()).toBe('Left behind: First line\n');
    const admin = await signedIn(t, 'admin');
    await admin.delete('/api/pages/live/leave').expect(204);
    await eventually(() =>
      expect(b.notices).toContainEqual({
        type: 'ended',
        message: 'The page was moved to the bin; this editing session has ended.',
      }),
    );
  });

  it('disconnects someone removed from the page group at once', async () => {
    const id = 'live/revoke';
    await page(id);
    const b = join(bob, id, 'b');
    await eventually(() => expect(b.synced).toBe(true));
    const admin = await signedIn(t, 'admin');
    await admin.patch(`/api/users/${bob.user!.id}`).send({ groups: [] }).expect(200);
    await eventually(() => expect(b.closes.map((c) => c.code)).toContain(4003));
  });
});
