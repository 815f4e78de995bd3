import { ShutdownState } from '../../src/common/health/shutdown-state';
import { openEvents, OpenStream, StreamEvent } from '../support/event-stream';
import { postImport } from '../support/import-helpers';
import { createPage, updatePage } from '../support/pages';
import { problem } from '../support/problems';
import { createPeerApp, createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

const slugOf = (event: StreamEvent) => event.data?.data?.slug as string | undefined;

describe('GET /api/events/stream: the live, visibility-filtered event stream', () => {
  let t: TestApp;
  let url: string;
  let admin: Client;
  let reader: Client;
  let member: Client;
  const open: OpenStream[] = [];

  beforeAll(async () => {
    t = await createTestApp({ EVENT_STREAM_POLL_MS: '100' });
    await t.app.listen(0, '127.0.0.1');
    url = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'staff');
    admin = await signedIn(t, 'admin');
    reader = await signedIn(t, 'reader');
    member = await signedIn(t, 'reader', { groups: ['staff'] });
  });
  afterEach(() => open.splice(0).forEach((s) => s.close()));

  async function follow(client: Client, lastEventId?: string, base = url): Promise<OpenStream> {
    const headers: Record<string, string> = { cookie: client.auth.cookie! };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    const stream = await openEvents(`${base}/api/events/stream`, headers);
    open.push(stream);
    expect(stream.status).toBe(200);
    await stream.waitFor((e) => e.event === 'ready');
    return stream;
  }

  it('answers 401 without credentials and 400 for a Last-Event-ID it did not send', async () => {
    const anon = await t.http().get('/api/events/stream').expect(401);
    expect(anon.body).toEqual(problem(401, 'unauthenticated'));
    const bad = await reader
      .get('/api/events/stream')
      .set('Last-Event-ID', 'not-an-id')
      .expect(400);
    expect(bad.body).toEqual(problem(400, 'invalid_last_event_id'));
  });

  it('sends each event within a second, as text/event-stream, only to those who may see its page', async () => {
    const res = await openEvents(`${url}/api/events/stream`, { cookie: reader.auth.cookie! });
    open.push(res);
    const readerStream = res;
    await readerStream.waitFor((e) => e.event === 'ready');
    const memberStream = await follow(member);
    const adminStream = await follow(admin);

    const started = Date.now();
    await createPage(admin, 'secret/plan', { groups: ['staff'] });
    await createPage(admin, 'open/notes');
    await updatePage(admin, 'open/notes', { content: '# Notes\n\nMore.' });
    const updated = await readerStream.waitFor(
      (e) => e.event === 'page.updated' && slugOf(e) === 'open/notes',
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(updated.data).toEqual({
      id: expect.any(String),
      type: 'page.updated',
      occurredAt: expect.stringMatching(/Z$/),
      data: {
        id: expect.any(String),
        slug: 'open/notes',
        title: 'Title of open/notes',
        revision: 2,
        summary: null,
        actorId: admin.user!.id,
      },
    });
    expect(updated.id).toMatch(/^\d+$/);
    await memberStream.waitFor((e) => e.event === 'page.updated' && slugOf(e) === 'open/notes');
    await adminStream.waitFor((e) => e.event === 'page.updated' && slugOf(e) === 'open/notes');

    // The reader never hears of the staff page; its member and the admin do, in order.
    expect(readerStream.events.filter((e) => e.event !== 'ready').map(slugOf)).toEqual([
      'open/notes',
      'open/notes',
    ]);
    const seen = (s: OpenStream) =>
      s.events.filter((e) => e.event !== 'ready').map((e) => `${e.event} ${slugOf(e)}`);
    const all = ['page.created secret/plan', 'page.created open/notes', 'page.updated open/notes'];
    expect(seen(memberStream)).toEqual(all);
    expect(seen(adminStream)).toEqual(all);
    const ids = adminStream.events.filter((e) => e.event !== 'ready').map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);

    // Binning: the event of a page the reader could see reaches the reader.
    await admin.delete('/api/pages/open/notes').expect(204);
    await readerStream.waitFor((e) => e.event === 'page.binned' && slugOf(e) === 'open/notes');
  });

  it('resumes after Last-Event-ID with the missed events the reader may see, then goes on live', async () => {
    const first = await follow(reader);
    const ready = first.events.find((e) => e.event === 'ready')!;
    expect(ready.data).toEqual({ lastEventId: ready.id });
    first.close();

    await createPage(admin, 'missed/one');
    await createPage(admin, 'missed/secret', { groups: ['staff'] });
    await createPage(admin, 'missed/two');

    const again = await follow(reader, ready.id);
    const replayed = again.events.filter((e) => e.event !== 'ready');
    expect(replayed.map((e) => `${e.event} ${slugOf(e)}`)).toEqual([
      'page.created missed/one',
      'page.created missed/two',
    ]);
    expect(Number(replayed[0].id)).toBeGreaterThan(Number(ready.id));
    // /metrics counts the open streams.
    const metrics = await t.http().get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^kb_event_streams_open 1$/m);
    // The replay comes before `ready`, whose id is the newest event (hidden ones included).
    expect(again.events[again.events.length - 1].event).toBe('ready');

    await createPage(admin, 'missed/three');
    await again.waitFor((e) => slugOf(e) === 'missed/three');
    expect(again.events.some((e) => slugOf(e) === 'missed/secret')).toBe(false);

    // Resuming from the newest id replays nothing.
    const last = again.events[again.events.length - 1].id!;
    const current = await follow(reader, last);
    expect(current.events.map((e) => e.event)).toEqual(['ready']);
  });

  it('tells readers that an import finished (no report), administrators with its report', async () => {
    const readerStream = await follow(reader);
    const adminStream = await follow(admin);
    await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'imported.md', data: '# Imported\n\nText.' }],
    }).expect(200);
    const forReader = await readerStream.waitFor((e) => e.event === 'import.finished');
    expect(forReader.data).toEqual({
      id: expect.any(String),
      type: 'import.finished',
      occurredAt: expect.any(String),
      data: {},
    });
    const forAdmin = await adminStream.waitFor((e) => e.event === 'import.finished');
    expect(forAdmin.data.data).toEqual({
      format: 'markdown',
      counts: expect.objectContaining({ created: 1 }),
      actorId: admin.user!.id,
    });
  });

  it('reaches a stream on another instance: it reads the event log, not process memory', async () => {
    const peer = await createPeerApp(t);
    try {
      await peer.app.listen(0, '127.0.0.1');
      const peerUrl = (await peer.app.getUrl()).replace('[::1]', '127.0.0.1');
      const onPeer = await follow(reader, undefined, peerUrl);
      await createPage(admin, 'elsewhere/page');
      await onPeer.waitFor((e) => e.event === 'page.created' && slugOf(e) === 'elsewhere/page');
      onPeer.close();
    } finally {
      await peer.close();
    }
  });

  // Last: the app drains from here on.
  it('ends every stream when the instance starts draining, and opens none after', async () => {
    const stream = await follow(reader);
    t.get(ShutdownState).startDraining();
    await stream.ended;
    const late = await openEvents(`${url}/api/events/stream`, { cookie: reader.auth.cookie! });
    open.push(late);
    await late.ended;
    expect(late.events.map((e) => e.event)).toEqual(['ready']);
  });
});
