import WebSocket from 'ws';
import { CollabClient, rawUpgrade } from '../support/collab-client';
import { eventually } from '../support/eventually';
import { createPage } from '../support/pages';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

/**
 * Issue 30, the rest of a live session's life: sign-out and a disabled account disconnect at
 * once, a move keeps the session on the new slug, a revision restore reaches the editors as a
 * diff, and the limits (connections per person, messages per second, the page size) close or
 * refuse with a reason and never damage the stored document.
 */
describe('/collab: sessions, moves, restores and limits', () => {
  let t: TestApp;
  let url: string;
  let alice: Client;
  let bob: Client;
  const clients: CollabClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      COLLAB_SAVE_IDLE_SECONDS: '3600',
      COLLAB_MAX_CONNECTIONS_PER_USER: '3',
      COLLAB_MAX_MESSAGES_PER_SECOND: '5',
      PAGE_MAX_BYTES: '2048',
    });
    await t.app.listen(0, '127.0.0.1');
    url = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    alice = await signedIn(t, 'editor');
    bob = await signedIn(t, 'editor');
  });
  afterEach(() => clients.splice(0).forEach((c) => c.destroy()));

  function join(client: Client, slug: string): CollabClient {
    const c = new CollabClient(url, slug, { cookie: client.auth.cookie, origin: url });
    clients.push(c);
    return c;
  }

  async function raw(client: Client, slug: string) {
    return rawUpgrade(`${url.replace(/^http/, 'ws')}/collab/${slug}`, {
      cookie: client.auth.cookie,
      origin: url,
    });
  }

  function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
    return new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  it('disconnects at once whoever signs out or is disabled', async () => {
    await createPage(alice, 'live/out', { content: 'Text\n' });
    const a = join(alice, 'live/out');
    const b = join(bob, 'live/out');
    await eventually(() => expect(a.synced && b.synced).toBe(true));
    await bob.post('/auth/logout').expect(204);
    await eventually(() => expect(b.closes.map((c) => c.code)).toContain(4003));
    const admin = await signedIn(t, 'admin');
    await admin.patch(`/api/users/${alice.user!.id}`).send({ disabled: true }).expect(200);
    await eventually(() => expect(a.closes.map((c) => c.code)).toContain(4003));
  });

  it('keeps the session through a move, and brings a restored revision in as a diff', async () => {
    const { revision } = await createPage(alice, 'live/before', { content: 'one\ntwo\n' });
    await alice
      .put('/api/pages/live/before')
      .send({ content: 'one\ntwo\nthree\n', baseRevision: revision })
      .expect(200);
    const a = join(alice, 'live/before');
    const b = join(bob, 'live/before');
    await eventually(() => expect(a.synced && b.synced).toBe(true));

    const admin = await signedIn(t, 'admin');
    await admin.post('/api/pages/move').send({ from: 'live/before', to: 'live/after' }).expect(200);
    await eventually(() => expect(a.notices).toContainEqual({ type: 'moved', slug: 'live/after' }));
    a.type(0, 'zero\n');
    await eventually(() => expect(b.text.toString()).toBe('zero\none\ntwo\nthree\n'));

    // Revision 1 restored through the API: its change (line three goes) reaches both editors,
    // and the line typed in the session stays.
    const { body: list } = await alice.get('/api/revisions?slug=live/after').expect(200);
    const first = (list.items as { id: string; revision: number }[]).find((r) => r.revision === 1)!;
    await admin.post(`/api/revisions/${first.id}/restore`).send({}).expect(200);
    await eventually(() => {
      expect(a.text.toString()).toBe('zero\none\ntwo\n');
      expect(b.text.toString()).toBe('zero\none\ntwo\n');
    });
    b.save();
    await eventually(async () => {
      const { body } = await alice.get('/api/pages/live/after').expect(200);
      expect(body.content).toBe('zero\none\ntwo\n');
    });
  });

  it('caps connections per person, messages per second and the page size', async () => {
    await createPage(alice, 'live/limits', { content: 'Kept\n' });
    const open: WebSocket[] = [];
    for (let i = 0; i < 3; i++) {
      const ok = await raw(bob, 'live/limits');
      expect(ok.status).toBe(101);
      open.push(ok.ws!);
    }
    const fourth = await raw(bob, 'live/limits');
    expect(fourth.status).toBe(429);
    expect(JSON.parse(fourth.body)).toMatchObject({ code: 'too_many_connections' });
    open.forEach((ws) => ws.terminate());

    // Past the bucket (5 a second, 10 s of them): closed with 1008.
    const flooding = await raw(alice, 'live/limits');
    const flooded = closeOf(flooding.ws!);
    for (let i = 0; i < 80; i++) flooding.ws!.send(Buffer.from([3]));
    expect(await flooded).toEqual({ code: 1008, reason: 'too many messages' });

    // Typing that would take the text past PAGE_MAX_BYTES: closed, nothing of it stored.
    const a = join(alice, 'live/limits');
    await eventually(() => expect(a.synced).toBe(true));
    a.type(a.text.length, 'x'.repeat(3000));
    await eventually(() => expect(a.closes.map((c) => c.code)).toContain(1009));
    const fresh = join(bob, 'live/limits');
    await eventually(() => expect(fresh.synced).toBe(true));
    expect(fresh.text.toString()).toBe('Kept\n');
    fresh.destroy();
    const { body } = await alice.get('/api/pages/live/limits').expect(200);
    expect(body.content).toBe('Kept\n');
  });
});
