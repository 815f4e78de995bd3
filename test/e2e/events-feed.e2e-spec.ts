import { eventually } from '../support/eventually';
import { createPage, updatePage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

interface FeedItem {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

describe('GET /api/events: the replayable event feed', () => {
  let t: TestApp;
  let admin: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'staff');
    admin = await signedIn(t, 'admin');
    reader = await signedIn(t, 'reader');
  });

  /** Every event the client can see after `after`, following nextCursor `limit` at a time. */
  async function readAll(client: Client, after?: string, limit = 2) {
    const items: FeedItem[] = [];
    let cursor = after;
    for (;;) {
      const query = new URLSearchParams({ limit: String(limit) });
      if (cursor) query.set('after', cursor);
      const res = await client.get(`/api/events?${query}`).expect(200);
      items.push(...(res.body.items as FeedItem[]));
      expect(res.body.nextCursor).toEqual(expect.any(String));
      if (res.body.nextCursor === cursor || res.body.items.length === 0)
        return { items, cursor: res.body.nextCursor as string };
      cursor = res.body.nextCursor as string;
    }
  }

  async function eventCount(): Promise<number> {
    const [row] = await t.dataSource.query('SELECT COUNT(*) AS n FROM events');
    return Number(row.n);
  }

  it('answers 401 without credentials and 400 for a cursor it did not issue', async () => {
    const anon = await anonymous(t).get('/api/events');
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual(problem(401, 'unauthenticated'));
    const bad = await reader.get('/api/events?after=!!').expect(400);
    expect(bad.body).toEqual(problem(400, 'invalid_cursor'));
    const limit = await reader.get('/api/events?limit=0').expect(422);
    expect(limit.body).toEqual(
      problem(422, 'validation_failed', { errors: [expect.objectContaining({ field: 'limit' })] }),
    );
  });

  it('lists events oldest first with their data, paged by cursor, and after=latest starts from now', async () => {
    const start = await admin.get('/api/events?after=latest').expect(200);
    expect(start.body).toEqual({ items: [], nextCursor: expect.any(String) });
    const page = await createPage(admin, 'feed/one');
    await updatePage(admin, 'feed/one', { content: '# One\n\nChanged' });
    await admin.delete('/api/pages/feed/one').expect(204);
    await eventually(async () => expect(await eventCount()).toBe(3));

    const { items, cursor } = await readAll(admin, start.body.nextCursor);
    expect(items).toEqual([
      {
        id: expect.any(String),
        type: 'page.created',
        occurredAt: expect.stringMatching(/Z$/),
        data: {
          id: expect.any(String),
          slug: 'feed/one',
          title: page.title,
          summary: null,
          actorId: admin.user!.id,
        },
      },
      expect.objectContaining({
        type: 'page.updated',
        data: expect.objectContaining({ revision: 2 }),
      }),
      expect.objectContaining({
        type: 'page.binned',
        data: expect.objectContaining({ slug: 'feed/one' }),
      }),
    ]);
    // Nothing new after the last cursor; then a new event, and only it.
    expect((await admin.get(`/api/events?after=${cursor}`).expect(200)).body.items).toEqual([]);
    await createPage(admin, 'feed/two');
    await eventually(async () => expect(await eventCount()).toBe(4));
    const next = await admin.get(`/api/events?after=${cursor}`).expect(200);
    expect(next.body.items.map((i: FeedItem) => i.data.slug)).toEqual(['feed/two']);
    // after=latest: no items, the newest event's cursor.
    const latest = await admin.get('/api/events?after=latest').expect(200);
    expect(latest.body).toEqual({ items: [], nextCursor: next.body.nextCursor });
  });

  it('shows each caller only events about pages they may see; imports to administrators', async () => {
    await createPage(admin, 'open');
    await createPage(admin, 'staff-only', { groups: ['staff'] });
    await updatePage(admin, 'staff-only', { content: '# Secret\n\nStill secret' });
    await t
      .http()
      .post('/api/import')
      .set('Cookie', admin.auth.cookie!)
      .set('Sec-Fetch-Site', 'same-origin')
      .field('format', 'markdown')
      .attach('files', Buffer.from('# Imported\n\nText'), 'imported.md')
      .expect(200);
    await eventually(async () => expect(await eventCount()).toBe(4));

    const seenByReader = (await readAll(reader)).items;
    expect(seenByReader.map((i) => [i.type, i.data.slug])).toEqual([['page.created', 'open']]);
    const member = await signedIn(t, 'reader', { groups: ['staff'] });
    expect((await readAll(member)).items.map((i) => i.data.slug)).toEqual([
      'open',
      'staff-only',
      'staff-only',
    ]);
    const seenByAdmin = (await readAll(admin)).items;
    expect(seenByAdmin.map((i) => i.type)).toEqual([
      'page.created',
      'page.created',
      'page.updated',
      'import.finished',
    ]);
    expect(seenByAdmin[3].data).toEqual({
      format: 'markdown',
      counts: expect.objectContaining({ created: 1 }),
      actorId: admin.user!.id,
    });
    // The reader's cursor moved past the hidden events: polling again shows nothing old.
    const { cursor } = await readAll(reader);
    expect((await reader.get(`/api/events?after=${cursor}`).expect(200)).body.items).toEqual([]);
  });
});
