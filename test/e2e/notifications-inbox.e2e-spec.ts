import { DataSource } from 'typeorm';
import { UsersService } from '../../src/auth/users.service';
import { NotificationsService } from '../../src/notifications/notifications.service';
import { eventually } from '../support/eventually';
import { createTestApp, TestApp } from '../support/test-app';
import { createPage, updatePage } from '../support/pages';
import { problem } from '../support/problems';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('notifications inbox', () => {
  let t: TestApp;
  let owner: Client;
  let other: Client;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    owner = await signedIn(t, 'editor');
    other = await signedIn(t, 'editor');
    admin = await signedIn(t, 'admin');
  });

  const person = (c: Client) => ({
    id: c.user!.id,
    username: c.user!.username,
    displayName: c.user!.username,
  });
  const inbox = async (c: Client, query = '') =>
    (await c.get(`/api/notifications${query}`).expect(200)).body;

  it('tells the owner when someone else changes their page, folding unread changes into one item', async () => {
    const page = await createPage(other, 'team/handbook', { owner: owner.user!.username });
    await updatePage(other, 'team/handbook', { title: 'Handbook v2' });
    const first = await eventually(async () => {
      const body = await inbox(owner);
      expect(body.items).toHaveLength(1);
      return body;
    });
    expect(first).toEqual({
      items: [
        {
          id: expect.any(String),
          kind: 'page.updated',
          read: false,
          readAt: null,
          createdAt: ISO,
          actor: person(other),
          page: { id: expect.any(String), slug: 'team/handbook', title: 'Handbook v2' },
          data: { revision: page.revision + 1, updates: 1, summary: null },
        },
      ],
      nextCursor: null,
      unreadCount: 1,
    });

    await updatePage(admin, 'team/handbook', { content: '# Handbook\n\nMore.' });
    const folded = await eventually(async () => {
      const body = await inbox(owner);
      expect(body.items[0].data).toEqual({
        revision: page.revision + 2,
        updates: 2,
        summary: null,
      });
      return body;
    });
    expect(folded.items).toHaveLength(1);
    expect(folded.items[0].actor).toEqual(person(admin));

    // The owner's own edit tells no one; once read, the next change is a new item.
    await updatePage(owner, 'team/handbook', { content: '# Handbook\n\nMine.' });
    await owner.post(`/api/notifications/${folded.items[0].id}/read`).expect(204);
    await updatePage(other, 'team/handbook', { content: '# Handbook\n\nTheirs.' });
    const after = await eventually(async () => {
      const body = await inbox(owner);
      expect(body.items).toHaveLength(2);
      return body;
    });
    expect(after.items.map((n: { read: boolean; data: unknown }) => [n.read, n.data])).toEqual([
      [false, { revision: page.revision + 4, updates: 1, summary: null }],
      [true, { revision: page.revision + 2, updates: 2, summary: null }],
    ]);
    expect(after.unreadCount).toBe(1);
    expect((await inbox(other)).items).toEqual([]);
  });

  it('tells the owner when an admin bins their page, even though the page is now invisible', async () => {
    await createPage(owner, 'drafts/idea', { owner: owner.user!.username });
    await admin.delete('/api/pages/drafts/idea').expect(204);
    const body = await eventually(async () => {
      const b = await inbox(owner);
      expect(b.items).toHaveLength(1);
      return b;
    });
    expect(body.items[0]).toEqual({
      id: expect.any(String),
      kind: 'page.binned',
      read: false,
      readAt: null,
      createdAt: ISO,
      actor: person(admin),
      page: { id: expect.any(String), slug: 'drafts/idea', title: 'Title of drafts/idea' },
      data: {},
    });
    expect(body.unreadCount).toBe(1);
  });

  it('tells the user who started an import when it finished, with its counts (not for dry runs)', async () => {
    const files = (req: ReturnType<Client['post']>) =>
      req
        .field('format', 'markdown')
        .attach('files', Buffer.from('# Imported\n\nHello.\n'), 'imported-page.md');
    const dry = await files(admin.post('/api/import').field('dryRun', 'true'));
    const real = await files(admin.post('/api/import'));
    expect([dry.status, real.status]).toEqual([200, 200]);
    const body = await eventually(async () => {
      const b = await inbox(admin);
      expect(b.items).toHaveLength(1);
      return b;
    });
    expect(body.items[0]).toEqual({
      id: expect.any(String),
      kind: 'import.finished',
      read: false,
      readAt: null,
      createdAt: ISO,
      actor: person(admin),
      page: null,
      data: { format: 'markdown', counts: expect.objectContaining({ created: 1 }) },
    });
    await settle();
    expect((await inbox(admin)).items).toHaveLength(1);
  });

  it('marks one or all read, idempotently; another user’s item is 404', async () => {
    const service = t.get(NotificationsService);
    for (let i = 0; i < 3; i++) {
      await service.create(
        { recipientId: owner.user!.id, kind: 'import.finished', data: { n: i } },
        new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      );
    }
    await service.create({ recipientId: other.user!.id, kind: 'import.finished', data: {} });
    const all = await inbox(owner);
    expect(all.items.map((n: { data: { n: number } }) => n.data.n)).toEqual([2, 1, 0]);
    expect(all.unreadCount).toBe(3);
    const [newest, middle] = all.items;

    await owner.post(`/api/notifications/${middle.id}/read`).expect(204);
    await owner.post(`/api/notifications/${middle.id}/read`).expect(204);
    const unread = await inbox(owner, '?unread=true');
    expect(unread.items.map((n: { id: string }) => n.id)).toEqual([newest.id, all.items[2].id]);
    expect(unread.unreadCount).toBe(2);
    const marked = (await inbox(owner)).items[1];
    expect(marked).toEqual({ ...middle, read: true, readAt: ISO });

    const theirs = (await inbox(other)).items[0];
    await owner
      .post(`/api/notifications/${theirs.id}/read`)
      .expect(404)
      .expect((r) => expect(r.body).toEqual(problem(404, 'notification_not_found')));
    await owner.post('/api/notifications/00000000-0000-4000-8000-000000000000/read').expect(404);
    expect((await inbox(other)).items[0].read).toBe(false);

    await owner.post('/api/notifications/all/read').expect(204);
    await owner.post('/api/notifications/all/read').expect(204);
    expect(await inbox(owner, '?unread=true')).toEqual({
      items: [],
      nextCursor: null,
      unreadCount: 0,
    });
    expect((await inbox(owner, '?unread=false')).items).toHaveLength(3);
    expect((await inbox(other)).unreadCount).toBe(1);
  });

  it('pages newest first and validates its parameters', async () => {
    const service = t.get(NotificationsService);
    for (let i = 0; i < 5; i++) {
      await service.create(
        { recipientId: owner.user!.id, kind: 'import.finished', data: { n: i } },
        new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      );
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const body: {
        items: { data: { n: number } }[];
        nextCursor: string | null;
        unreadCount: number;
      } = await inbox(owner, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(body.unreadCount).toBe(5);
      seen.push(...body.items.map((n) => n.data.n));
      cursor = body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    await owner.get('/api/notifications?unread=maybe').expect(422);
    await owner.get('/api/notifications?limit=1000').expect(422);
    await owner.get('/api/notifications?cursor=%%%').expect(400);
    // A cursor of the right shape whose date is not a date is refused like any other bad cursor.
    const badDate = Buffer.from(
      JSON.stringify({ at: 'not-a-date', id: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url');
    const refused = await owner.get(`/api/notifications?cursor=${badDate}`).expect(400);
    expect(refused.body).toEqual(problem(400, 'invalid_cursor'));
  });

  it('hides notices about pages the recipient can no longer see, and shows them again', async () => {
    await createGroup(t, 'finance');
    const users = t.get(UsersService);
    await users.update(owner.user!.id, { groups: ['finance'] }, admin.user!.id);
    await createPage(admin, 'finance/budget', { owner: owner.user!.username, groups: ['finance'] });
    await updatePage(admin, 'finance/budget', { title: 'Budget 2027' });
    await eventually(async () => expect((await inbox(owner)).items).toHaveLength(1));

    const token = await owner.withToken();
    await users.update(owner.user!.id, { groups: [] }, admin.user!.id);
    expect(await inbox(token)).toEqual({ items: [], nextCursor: null, unreadCount: 0 });
    await users.update(owner.user!.id, { groups: ['finance'] }, admin.user!.id);
    expect((await inbox(token)).unreadCount).toBe(1);
  });

  it('answers 401 without credentials on every route', async () => {
    for (const [method, path] of [
      ['get', '/api/notifications'],
      ['post', '/api/notifications/all/read'],
      ['post', '/api/notifications/00000000-0000-4000-8000-000000000000/read'],
    ] as const) {
      await anonymous(t)
        .request(method, path)
        .expect(401)
        .expect((r) => expect(r.body).toEqual(problem(401, 'unauthenticated')));
    }
    const reader = await signedIn(t, 'reader');
    await reader
      .get('/api/notifications')
      .expect(200, { items: [], nextCursor: null, unreadCount: 0 });
    const [{ n }] = await t.get(DataSource).query('SELECT COUNT(*) AS n FROM notifications');
    expect(Number(n)).toBe(0);
  });
});
