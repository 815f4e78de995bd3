import { UsersService } from '../../src/auth/users.service';
import { eventually } from '../support/eventually';
import { createPage, updatePage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('watches: PUT, DELETE and GET /api/watches, and the notices watchers get', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let reader: Client;
  let member: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'staff');
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    reader = await signedIn(t, 'reader');
    member = await signedIn(t, 'reader', { groups: ['staff'] });
  });

  const inbox = async (c: Client) => (await c.get('/api/notifications').expect(200)).body;
  const watches = async (c: Client) => (await c.get('/api/watches').expect(200)).body;
  const rows = async () =>
    (await t.dataSource.query('SELECT user_id, slug, subtree FROM watches ORDER BY slug')).map(
      (r: { user_id: string; slug: string; subtree: unknown }) => ({
        userId: r.user_id,
        slug: r.slug,
        subtree: Number(r.subtree) === 1,
      }),
    );

  it('needs a caller, a valid slug and a page the caller may see', async () => {
    await anonymous(t)
      .put('/api/watches')
      .send({ slug: 'a' })
      .expect(401)
      .expect((r) => expect(r.body).toEqual(problem(401, 'unauthenticated')));
    await anonymous(t).get('/api/watches').expect(401);
    await reader
      .put('/api/watches')
      .send({ slug: 'a//b' })
      .expect(422)
      .expect((r) => expect(r.body.errors[0]).toMatchObject({ field: 'slug' }));
    await reader
      .put('/api/watches')
      .send({ slug: 'a', subtree: 'yes' })
      .expect(400)
      .expect((r) => expect(r.body).toMatchObject({ status: 400, code: 'invalid_type' }));
    await reader
      .put('/api/watches')
      .send({})
      .expect((r) => expect([400, 422]).toContain(r.status));
    // Missing and invisible answer alike.
    await createPage(admin, 'secret/plan', { groups: ['staff'] });
    const missing = await reader.put('/api/watches').send({ slug: 'nowhere' }).expect(404);
    const hidden = await reader.put('/api/watches').send({ slug: 'secret/plan' }).expect(404);
    expect(missing.body).toEqual(problem(404, 'page_not_found'));
    expect({ ...hidden.body, requestId: 'x' }).toEqual({ ...missing.body, requestId: 'x' });
    await reader.put('/api/watches').send({ slug: 'secret', subtree: true }).expect(404);
    expect(await rows()).toEqual([]);
  });

  it('adds, lists and removes watches, idempotently, for pages and folders', async () => {
    await createPage(admin, 'team/handbook');
    await createPage(admin, 'docs/guide/install');
    const put = await reader.put('/api/watches').send({ slug: 'Team/Handbook' }).expect(200);
    expect(put.body).toEqual({ slug: 'team/handbook', subtree: false, createdAt: ISO });
    const again = await reader.put('/api/watches').send({ slug: 'team/handbook' }).expect(200);
    expect(again.body).toEqual(put.body);
    // A folder that is not itself a page can be watched when a visible page is under it.
    await reader.put('/api/watches').send({ slug: 'docs', subtree: true }).expect(200);
    expect(await watches(reader)).toEqual({
      items: [
        { slug: 'docs', subtree: true, createdAt: ISO },
        { slug: 'team/handbook', subtree: false, createdAt: ISO },
      ],
      nextCursor: null,
    });
    const paged = (await reader.get('/api/watches?limit=1').expect(200)).body;
    expect(paged.items.map((w: { slug: string }) => w.slug)).toEqual(['docs']);
    const rest = (await reader.get(`/api/watches?limit=1&cursor=${paged.nextCursor}`).expect(200))
      .body;
    expect(rest).toEqual({
      items: [{ slug: 'team/handbook', subtree: false, createdAt: ISO }],
      nextCursor: null,
    });
    // Another person's list is their own.
    expect(await watches(editor)).toEqual({ items: [], nextCursor: null });

    await reader.delete('/api/watches').send({ slug: 'team/handbook' }).expect(204);
    await reader.delete('/api/watches').send({ slug: 'team/handbook' }).expect(204);
    // A folder watch is removed as a folder watch.
    await reader.delete('/api/watches').send({ slug: 'docs' }).expect(204);
    expect(await rows()).toEqual([{ userId: reader.user!.id, slug: 'docs', subtree: true }]);
    await reader.delete('/api/watches').send({ slug: 'docs', subtree: true }).expect(204);
    expect(await rows()).toEqual([]);
  });

  it("tells watchers of a page or its folder about others' edits and binning, not their own", async () => {
    await createPage(admin, 'team/handbook');
    await createPage(admin, 'team/sub/deep');
    await reader.put('/api/watches').send({ slug: 'team/handbook' }).expect(200);
    await member.put('/api/watches').send({ slug: 'team', subtree: true }).expect(200);
    await editor.put('/api/watches').send({ slug: 'team', subtree: true }).expect(200);

    await updatePage(editor, 'team/handbook', { title: 'Handbook v2' });
    await updatePage(editor, 'team/sub/deep', { content: '# Deep\n\nChanged.' });
    const forReader = await eventually(async () => {
      const body = await inbox(reader);
      expect(body.items).toHaveLength(1);
      return body;
    });
    expect(forReader.items[0]).toEqual({
      id: expect.any(String),
      kind: 'page.updated',
      read: false,
      readAt: null,
      createdAt: ISO,
      actor: expect.objectContaining({ id: editor.user!.id }),
      page: { id: expect.any(String), slug: 'team/handbook', title: 'Handbook v2' },
      data: { revision: 2, updates: 1, summary: null },
    });
    const forMember = await eventually(async () => {
      const body = await inbox(member);
      expect(body.items).toHaveLength(2);
      return body;
    });
    expect(forMember.items.map((n: { page: { slug: string } }) => n.page.slug).sort()).toEqual([
      'team/handbook',
      'team/sub/deep',
    ]);
    // The editor watches the folder too, but made the changes: nothing for them.
    expect((await inbox(editor)).items).toEqual([]);

    await admin.delete('/api/pages/team/handbook').expect(204);
    await eventually(async () => {
      const body = await inbox(reader);
      // The inbox shows no edit notice of a page in the bin, only the bin notice.
      expect(body.items.map((n: { kind: string }) => n.kind)).toEqual(['page.binned']);
    });
    await eventually(async () =>
      expect((await inbox(editor)).items.map((n: { kind: string }) => n.kind)).toEqual([
        'page.binned',
      ]),
    );
  });

  it('tells watchers of the old and of the new address when a page moves', async () => {
    await createPage(editor, 'guides/setup');
    await createPage(editor, 'handbook/intro');
    await reader.put('/api/watches').send({ slug: 'guides', subtree: true }).expect(200);
    await member.put('/api/watches').send({ slug: 'handbook', subtree: true }).expect(200);
    await editor
      .post('/api/pages/move')
      .send({ from: 'guides/setup', to: 'handbook/setup' })
      .expect(200);
    for (const watcher of [reader, member]) {
      const [notice] = (await inbox(watcher)).items;
      expect(notice).toMatchObject({
        kind: 'page.moved',
        page: { slug: 'handbook/setup' },
        data: { from: 'guides/setup', revision: 2 },
      });
    }
    // Never the mover, and the owner (the mover here) hears nothing either.
    expect((await inbox(editor)).items).toEqual([]);
  });

  it('never tells a watcher who can no longer see the page', async () => {
    await createPage(admin, 'staff/plan', { groups: ['staff'] });
    await member.put('/api/watches').send({ slug: 'staff', subtree: true }).expect(200);
    await updatePage(admin, 'staff/plan', { content: '# Plan\n\nOne.' });
    await eventually(async () => expect((await inbox(member)).items).toHaveLength(1));
    await member.post('/api/notifications/all/read').expect(204);

    // The member leaves the group: further edits and binning reach them no more.
    await t.get(UsersService).update(member.user!.id, { groups: [] }, admin.user!.id);
    await updatePage(admin, 'staff/plan', { content: '# Plan\n\nTwo.' });
    await admin.delete('/api/pages/staff/plan').expect(204);
    await eventually(async () => {
      const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM events WHERE type = ?', [
        'page.binned',
      ]);
      expect(Number(n)).toBe(1);
    });
    // The listeners ran (the bin event is recorded); give them the same time again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [{ count }] = await t.dataSource.query(
      'SELECT COUNT(*) AS count FROM notifications WHERE recipient_id = ?',
      [member.user!.id],
    );
    expect(Number(count)).toBe(1);
    expect((await inbox(member)).items).toEqual([]);
  });
});
