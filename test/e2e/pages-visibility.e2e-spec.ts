import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';
import { problem } from '../support/problems';
import { allItems, createPage } from '../support/pages';
import { NotificationsService } from '../../src/notifications/notifications.service';
import { PagesService } from '../../src/pages/pages.service';
import { PagesTable } from '../../src/pages/store/page.entity';

/**
 * A page restricted to group `hr` must not show up anywhere for a reader outside it:
 * not the page, its Markdown, lists, recent, tags, graph, backlinks, revisions or previews.
 */
describe('pages: visibility by groups', () => {
  let t: TestApp;
  let admin: Client;
  let insider: Client;
  let outsider: Client;
  let outsiderEditor: Client;
  let secretRevisionId: string;

  beforeAll(async () => {
    t = await createTestApp();
    await createGroup(t, 'hr');
    await createGroup(t, 'eng');
    admin = await signedIn(t, 'admin');
    insider = await signedIn(t, 'reader', { groups: ['hr'] });
    outsider = await signedIn(t, 'reader', { groups: ['eng'] });
    outsiderEditor = await signedIn(t, 'editor', { groups: ['eng'] });
    await createPage(admin, 'public', {
      title: 'Public page',
      tags: ['shared'],
      content: 'Links to [secret](/hr/salaries).',
    });
    await createPage(admin, 'hr/salaries', {
      title: 'Salaries',
      groups: ['hr'],
      tags: ['shared', 'payroll'],
      content: 'Back to [public](/public) and [eng](/eng-only).',
    });
    await createPage(admin, 'eng-only', {
      title: 'Eng',
      groups: ['eng', 'hr'],
      content: 'See [salaries](/hr/salaries).',
    });
    const revisions = await admin.get('/api/revisions?slug=hr/salaries').expect(200);
    secretRevisionId = revisions.body.items[0].id;
  });
  afterAll(() => t.close());

  it('the page, its Markdown and its revisions are 404 for outsiders, as if missing', async () => {
    const missing = await outsider.get('/api/pages/hr/does-not-exist').expect(404);
    for (const path of [
      '/api/pages/hr/salaries',
      '/api/pages/hr/salaries/raw',
      '/api/revisions?slug=hr/salaries',
    ]) {
      const res = await outsider.get(path).expect(404);
      expect(res.body).toEqual(problem(404, 'page_not_found'));
      expect(res.body.detail).toBe(missing.body.detail);
    }
    await outsider
      .get(`/api/revisions/${secretRevisionId}`)
      .expect(404)
      .expect((r) => expect(r.body).toEqual(problem(404, 'revision_not_found')));
    await outsiderEditor.post(`/api/revisions/${secretRevisionId}/restore`).send({}).expect(404);
    await outsiderEditor
      .put('/api/pages/hr/salaries')
      .send({ baseRevision: 1, content: 'hacked' })
      .expect(404);
    await outsider.get('/api/pages/hr/salaries').set('If-None-Match', '"1"').expect(404);
  });

  it('members and admins read it', async () => {
    await insider.get('/api/pages/hr/salaries').expect(200);
    await insider.get('/api/pages/hr/salaries/raw').expect(200);
    await admin.get('/api/pages/hr/salaries').expect(200);
    await insider.get(`/api/revisions/${secretRevisionId}`).expect(200);
  });

  it('lists, recent and tag filters leave it out', async () => {
    for (const path of [
      '/api/pages',
      '/api/recent',
      '/api/pages?tag=payroll',
      '/api/pages?tag=shared',
    ]) {
      const slugs = (await allItems(outsider, path)).map((p) => p.slug);
      expect(slugs).not.toContain('hr/salaries');
    }
    expect((await allItems(outsider, '/api/pages')).map((p) => p.slug).sort()).toEqual([
      'eng-only',
      'public',
    ]);
    expect((await allItems(insider, '/api/pages')).map((p) => p.slug).sort()).toEqual([
      'eng-only',
      'hr/salaries',
      'public',
    ]);
  });

  it('tags count only visible pages', async () => {
    expect(await allItems(outsider, '/api/tags')).toEqual([{ name: 'shared', count: 1 }]);
    expect(await allItems(insider, '/api/tags')).toEqual([
      { name: 'payroll', count: 1 },
      { name: 'shared', count: 2 },
    ]);
  });

  it('the graph has neither the node nor its edges', async () => {
    const outside = await outsider.get('/api/graph').expect(200);
    expect(outside.body).toEqual({
      nodes: [
        { slug: 'eng-only', title: 'Eng', tags: [] },
        { slug: 'public', title: 'Public page', tags: ['shared'] },
      ],
      edges: [],
    });
    const inside = await insider.get('/api/graph').expect(200);
    expect(inside.body.edges).toEqual([
      { from: 'eng-only', to: 'hr/salaries' },
      { from: 'hr/salaries', to: 'eng-only' },
      { from: 'hr/salaries', to: 'public' },
      { from: 'public', to: 'hr/salaries' },
    ]);
  });

  it('backlinks leave it out', async () => {
    const pub = await outsider.get('/api/pages/public').expect(200);
    expect(pub.body.backlinks).toEqual([]);
    const eng = await outsider.get('/api/pages/eng-only').expect(200);
    expect(eng.body.backlinks).toEqual([]);
    const pubInside = await insider.get('/api/pages/public').expect(200);
    expect(pubInside.body.backlinks).toEqual([{ slug: 'hr/salaries', title: 'Salaries' }]);
  });

  it('previews and rendered links do not reveal whether a linked page exists', async () => {
    const existing = await outsiderEditor
      .post('/api/preview')
      .send({ content: '[x](/hr/salaries)' })
      .expect(200);
    const missing = await outsiderEditor
      .post('/api/preview')
      .send({ content: '[x](/hr/nothing-here)' })
      .expect(200);
    expect(existing.body).toEqual({ html: '<p><a href="/hr/salaries">x</a></p>\n' });
    expect(missing.body).toEqual({ html: '<p><a href="/hr/nothing-here">x</a></p>\n' });
    const pub = await outsider.get('/api/pages/public').expect(200);
    // The page read marks it as it would mark a link to no page at all (kb-missing).
    expect(pub.body.html).toBe(
      '<p>Links to <a href="/hr/salaries" class="kb-missing">secret</a>.</p>\n',
    );
  });

  it('a deprecatedTarget must be visible to the writer', async () => {
    await outsiderEditor
      .post('/api/pages')
      .send({ slug: 'old', title: 'Old', lifecycle: 'deprecated', deprecatedTarget: 'hr/salaries' })
      .expect(422)
      .expect((r) =>
        expect(r.body.errors).toEqual([
          { field: 'deprecatedTarget', code: 'unknown_page', message: expect.any(String) },
        ]),
      );
  });

  it('editors may assign only their own groups', async () => {
    await outsiderEditor
      .post('/api/pages')
      .send({ slug: 'mine', title: 'Mine', groups: ['hr'] })
      .expect(422)
      .expect((r) =>
        expect(r.body.errors).toEqual([
          { field: 'groups[0]', code: 'group_not_assignable', message: expect.any(String) },
        ]),
      );
    await outsiderEditor
      .post('/api/pages')
      .send({ slug: 'mine', title: 'Mine', groups: ['eng'] })
      .expect(201);
    await insider.get('/api/pages/mine').expect(404);
    await outsider.get('/api/pages/mine').expect(200);
    // Keeping a group of the page's but none of one's own would lock the editor out.
    await admin
      .put('/api/pages/mine')
      .send({ baseRevision: 1, groups: ['eng', 'hr'] })
      .expect(200);
    await outsiderEditor
      .put('/api/pages/mine')
      .send({ baseRevision: 2, groups: ['hr'] })
      .expect(422)
      .expect((r) =>
        expect(r.body.errors).toEqual([
          { field: 'groups', code: 'would_lose_access', message: expect.any(String) },
        ]),
      );
    await outsiderEditor.put('/api/pages/mine').send({ baseRevision: 2, groups: [] }).expect(200);
  });

  it('changing groups changes who sees the page, in reads and lists alike', async () => {
    await createPage(admin, 'moving', { tags: ['moving'] });
    await outsider.get('/api/pages/moving').expect(200);
    await admin
      .put('/api/pages/moving')
      .send({ baseRevision: 1, groups: ['hr'] })
      .expect(200);
    await outsider.get('/api/pages/moving').expect(404);
    expect((await allItems(outsider, '/api/tags')).map((tag) => tag.name)).not.toContain('moving');
    expect((await allItems(outsider, '/api/pages')).map((p) => p.slug)).not.toContain('moving');
    await insider.get('/api/pages/moving').expect(200);
    await admin.put('/api/pages/moving').send({ baseRevision: 2, groups: [] }).expect(200);
    await outsider.get('/api/pages/moving').expect(200);
    expect((await allItems(outsider, '/api/tags')).map((tag) => tag.name)).toContain('moving');
  });

  it('the rule by user id (notifications) and getVisible are the same rule', async () => {
    const pages = t.get(PagesService);
    const notifications = t.get(NotificationsService);
    const secret = await t.dataSource
      .getRepository(PagesTable)
      .findOneByOrFail({ liveSlug: 'hr/salaries' });
    expect(await notifications.recipientWouldSee(insider.user!.id, secret.id)).toBe(true);
    expect(await notifications.recipientWouldSee(outsider.user!.id, secret.id)).toBe(false);
    expect(await notifications.recipientWouldSee(admin.user!.id, secret.id)).toBe(true);
    await expect(
      pages.getVisible('hr/salaries', {
        id: outsider.user!.id,
        username: 'x',
        displayName: 'x',
        role: 'reader',
        groups: ['eng'],
        via: 'session',
      }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'page_not_found',
    });
  });
});
