import { DataSource } from 'typeorm';
import { UsersService } from '../../src/auth/users.service';
import { eventually } from '../support/eventually';
import { createTestApp, TestApp } from '../support/test-app';
import { createPage } from '../support/pages';
import { Client, createGroup, signedIn } from '../support/users';

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

/**
 * Bin notices (`page.binned`) name a page that is no longer live; they are shown only to a
 * recipient who would see the page if it were live, checked when the notice is created and
 * again on every listing (DESIGN B: notifications respect visibility).
 */
describe('bin notices respect visibility', () => {
  let t: TestApp;
  let admin: Client;
  let rd: Client;

  const SLUG = 'sec/owned-by-rd';
  const TITLE = 'Layoff list Orca';

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'g1');
    await createGroup(t, 'g2');
    admin = await signedIn(t, 'admin');
    rd = await signedIn(t, 'reader', { groups: ['g1'] });
  });

  const setGroups = (c: Client, groups: string[]) =>
    t.get(UsersService).update(c.user!.id, { groups }, admin.user!.id);
  const inbox = (c: Client, query = '') => c.get(`/api/notifications${query}`).expect(200);
  const expectNoTrace = (text: string) => {
    expect(text).not.toContain(SLUG);
    expect(text).not.toContain('owned-by-rd');
    expect(text).not.toContain(TITLE);
  };
  const binId = async (slug: string): Promise<string> => {
    const bin = await admin.get('/api/bin?limit=100').expect(200);
    return bin.body.items.find((i: { slug: string }) => i.slug === slug).id;
  };
  const secretPage = (owner: Client) =>
    createPage(admin, SLUG, { title: TITLE, groups: ['g2'], owner: owner.user!.username });

  it('never tells an owner outside the page’s groups that it was binned (the audit case)', async () => {
    const page = await secretPage(rd);
    await rd.get(`/api/pages/${SLUG}`).expect(404);
    await admin.delete(`/api/pages/${SLUG}`).expect(204);
    // A page rd can see, binned afterwards: once its notice is there, the first event was handled.
    await createPage(admin, 'open/visible-one', { owner: rd.user!.username });
    await admin.delete('/api/pages/open/visible-one').expect(204);
    await eventually(async () => expect((await inbox(rd)).body.items).toHaveLength(1));
    await settle();

    for (const query of ['', '?unread=true', '?limit=1']) {
      const res = await inbox(rd, query);
      expect(res.body.items.map((n: { page: { slug: string } }) => n.page.slug)).toEqual([
        'open/visible-one',
      ]);
      expect(res.body.unreadCount).toBe(1);
      expectNoTrace(res.text);
    }
    // Checked at creation: no row was written about the secret page.
    const rows = await t
      .get(DataSource)
      .query('SELECT id FROM notifications WHERE page_slug = ? OR page_title = ?', [SLUG, TITLE]);
    expect(rows).toEqual([]);
    expect(page.slug).toBe(SLUG);
  });

  it('re-checks on every listing: hidden while the owner leaves the group, back when they return', async () => {
    await setGroups(rd, ['g1', 'g2']);
    await secretPage(rd);
    await admin.delete(`/api/pages/${SLUG}`).expect(204);
    const shown = await eventually(async () => {
      const res = await inbox(rd);
      expect(res.body.items).toHaveLength(1);
      return res.body;
    });
    expect(shown.items[0]).toMatchObject({
      kind: 'page.binned',
      page: { slug: SLUG, title: TITLE },
    });

    const token = await rd.withToken();
    await setGroups(rd, ['g1']);
    for (const c of [rd, token]) {
      const res = await inbox(c);
      expect(res.body).toEqual({ items: [], nextCursor: null, unreadCount: 0 });
      expectNoTrace(res.text);
    }

    await setGroups(rd, ['g2']);
    expect((await inbox(token)).body.items.map((n: { id: string }) => n.id)).toEqual([
      shown.items[0].id,
    ]);

    // Restored, the page is live again: the ordinary rule applies to the same notice.
    // Restoring is a change by someone else to rd's page, so it adds a page.updated notice.
    await admin.post(`/api/bin/${await binId(SLUG)}/restore`).expect(200);
    const restored = await inbox(rd);
    expect(restored.body.unreadCount).toBe(2);
    expect(restored.body.items.map((n: { kind: string }) => n.kind)).toEqual([
      'page.updated',
      'page.binned',
    ]);
    await setGroups(rd, []);
    const hidden = await inbox(rd);
    expect(hidden.body).toEqual({ items: [], nextCursor: null, unreadCount: 0 });
    expectNoTrace(hidden.text);
  });

  it('shows nothing once the page is purged', async () => {
    await setGroups(rd, ['g2']);
    await secretPage(rd);
    await admin.delete(`/api/pages/${SLUG}`).expect(204);
    await eventually(async () => expect((await inbox(rd)).body.items).toHaveLength(1));
    await admin.delete(`/api/bin/${await binId(SLUG)}`).expect(204);
    const res = await inbox(rd);
    expect(res.body).toEqual({ items: [], nextCursor: null, unreadCount: 0 });
    expectNoTrace(res.text);
  });

  it('tells an admin owner outside the groups (admins see every page)', async () => {
    const otherAdmin = await signedIn(t, 'admin');
    await secretPage(otherAdmin);
    await admin.delete(`/api/pages/${SLUG}`).expect(204);
    const body = await eventually(async () => {
      const res = await inbox(otherAdmin);
      expect(res.body.items).toHaveLength(1);
      return res.body;
    });
    expect(body.items[0]).toMatchObject({
      kind: 'page.binned',
      page: { slug: SLUG, title: TITLE },
      actor: { id: admin.user!.id },
    });
    expect(body.unreadCount).toBe(1);
  });
});
