import { createGroup, signedIn } from '../support/users';
import { createPage, usePagesApp } from '../support/pages';
import { problem, validationProblem } from '../support/problems';

describe('GET /api/tree: the page tree, one level at a time', () => {
  const c = usePagesApp();

  async function seed(): Promise<void> {
    await createPage(c.editor, 'guides', { title: 'Guides', icon: '📘' });
    await createPage(c.editor, 'guides/setup', { title: 'Setup' });
    await createPage(c.editor, 'guides/setup/linux', { title: 'Linux' });
    await createPage(c.editor, 'guides/faq', { title: 'FAQ' });
    // A folder with no page of its own, and a sibling whose name sorts right after "guides/".
    await createPage(c.editor, 'ops/runbooks/deploy', { title: 'Deploy' });
    await createPage(c.editor, 'guides0', { title: 'Guides zero' });
    await createPage(c.editor, 'guides-old', { title: 'Old guides' });
  }

  it('lists the top level by name with titles, icons and whether deeper pages exist', async () => {
    await seed();
    const res = await c.reader.get('/api/tree').expect(200);
    expect(res.body).toEqual({
      items: [
        { slug: 'guides', name: 'guides', title: 'Guides', icon: '📘', hasChildren: true },
        {
          slug: 'guides-old',
          name: 'guides-old',
          title: 'Old guides',
          icon: null,
          hasChildren: false,
        },
        { slug: 'guides0', name: 'guides0', title: 'Guides zero', icon: null, hasChildren: false },
        { slug: 'ops', name: 'ops', title: null, icon: null, hasChildren: true },
      ],
      nextCursor: null,
    });
  });

  it('lists the children of a slug, folders without a page included', async () => {
    await seed();
    const guides = await c.reader.get('/api/tree?parent=guides').expect(200);
    expect(guides.body.items).toEqual([
      { slug: 'guides/faq', name: 'faq', title: 'FAQ', icon: null, hasChildren: false },
      { slug: 'guides/setup', name: 'setup', title: 'Setup', icon: null, hasChildren: true },
    ]);
    const ops = await c.reader.get('/api/tree?parent=Ops').expect(200);
    expect(ops.body.items).toEqual([
      { slug: 'ops/runbooks', name: 'runbooks', title: null, icon: null, hasChildren: true },
    ]);
    const leaf = await c.reader.get('/api/tree?parent=guides/faq').expect(200);
    expect(leaf.body).toEqual({ items: [], nextCursor: null });
  });

  it('pages with cursors', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await createPage(c.editor, `p/${name}`);
    const first = await c.reader.get('/api/tree?parent=p&limit=2').expect(200);
    expect(first.body.items.map((i: { name: string }) => i.name)).toEqual(['a', 'b']);
    const second = await c.reader
      .get(`/api/tree?parent=p&limit=2&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(second.body.items.map((i: { name: string }) => i.name)).toEqual(['c', 'd']);
    const third = await c.reader
      .get(`/api/tree?parent=p&limit=2&cursor=${second.body.nextCursor}`)
      .expect(200);
    expect(third.body).toEqual({
      items: [expect.objectContaining({ name: 'e' })],
      nextCursor: null,
    });
  });

  it('counts only pages the caller can see and leaves the bin out', async () => {
    await createGroup(c.t, 'secret');
    const member = await signedIn(c.t, 'editor', { groups: ['secret'] });
    await createPage(member, 'team/hidden', { title: 'Hidden', groups: ['secret'] });
    await createPage(c.editor, 'team/open', { title: 'Open' });
    await createPage(c.editor, 'binned/page');
    await c.admin.delete('/api/pages/binned/page').expect(204);

    const names = async (client: typeof c.reader, parent?: string) =>
      (
        await client.get(`/api/tree${parent ? `?parent=${parent}` : ''}`).expect(200)
      ).body.items.map((i: { slug: string }) => i.slug);
    expect(await names(c.reader)).toEqual(['team']);
    expect(await names(c.reader, 'team')).toEqual(['team/open']);
    expect(await names(member, 'team')).toEqual(['team/hidden', 'team/open']);
    expect(await names(c.admin, 'team')).toEqual(['team/hidden', 'team/open']);
  });

  it('refuses a bad parent, a bad cursor and anonymous callers', async () => {
    await c.reader
      .get('/api/tree?parent=a//b')
      .expect(422)
      .expect((res) =>
        expect(res.body).toEqual(
          validationProblem({
            field: 'parent',
            code: 'invalid_slug',
            message: 'parent must be a page slug.',
          }),
        ),
      );
    await c.reader
      .get('/api/tree?cursor=bogus!')
      .expect(400)
      .expect((res) => expect(res.body).toEqual(problem(400, 'invalid_cursor')));
    await c.t
      .http()
      .get('/api/tree')
      .expect(401)
      .expect((res) => expect(res.body).toEqual(problem(401, 'unauthenticated')));
  });
});
