import { usePagesApp, allItems, createPage, updatePage } from '../support/pages';
import { PageBrowseService } from '../../src/pages/page-browse.service';

describe('pages: links, graph, backlinks, tags, media references', () => {
  const c = usePagesApp();

  const graph = async () => (await c.reader.get('/api/graph').expect(200)).body;

  it('extracts absolute and relative links on save; edges follow edits', async () => {
    await createPage(c.editor, 'docs/a', {
      content:
        '[b](b) [c](../c#part) [self](/docs/a) [ext](https://example.com) [missing](/nowhere)',
    });
    await createPage(c.editor, 'docs/b', { tags: ['x'] });
    await createPage(c.editor, 'c');
    expect(await graph()).toEqual({
      nodes: [
        { slug: 'c', title: 'Title of c', tags: [] },
        { slug: 'docs/a', title: 'Title of docs/a', tags: [] },
        { slug: 'docs/b', title: 'Title of docs/b', tags: ['x'] },
      ],
      edges: [
        { from: 'docs/a', to: 'c' },
        { from: 'docs/a', to: 'docs/b' },
      ],
    });
    // A link to a page created later becomes an edge when that page appears.
    await createPage(c.editor, 'nowhere');
    expect((await graph()).edges).toContainEqual({ from: 'docs/a', to: 'nowhere' });

    await updatePage(c.editor, 'docs/a', { content: 'Only [c](/C) now.' });
    expect((await graph()).edges).toEqual([{ from: 'docs/a', to: 'c' }]);
    const links: { target_slug: string }[] = await c.t.dataSource.query(
      'SELECT target_slug FROM page_links',
    );
    expect(links.map((l) => l.target_slug)).toEqual(['c']);
  });

  it('lists backlinks on a page read and follows renames', async () => {
    await createPage(c.editor, 'target', { title: 'Target' });
    await createPage(c.editor, 'z-source', { title: 'Zed', content: '[t](/target)' });
    await createPage(c.editor, 'a-source', { title: 'Alpha', content: '[t](target#x)' });
    const page = await c.reader.get('/api/pages/target').expect(200);
    expect(page.body.backlinks).toEqual([
      { slug: 'a-source', title: 'Alpha' },
      { slug: 'z-source', title: 'Zed' },
    ]);
    await updatePage(c.editor, 'a-source', { slug: 'moved/alpha' });
    // The moved page's relative link now resolves against its new place.
    expect((await c.reader.get('/api/pages/target').expect(200)).body.backlinks).toEqual([
      { slug: 'z-source', title: 'Zed' },
    ]);
    await updatePage(c.editor, 'moved/alpha', { content: '[t](/target)' });
    expect((await c.reader.get('/api/pages/target').expect(200)).body.backlinks).toEqual([
      { slug: 'moved/alpha', title: 'Alpha' },
      { slug: 'z-source', title: 'Zed' },
    ]);
  });

  it('counts tags of live pages, paged by name', async () => {
    await createPage(c.editor, 'p1', { tags: ['Beta', 'alpha'] });
    await createPage(c.editor, 'p2', { tags: ['beta'] });
    await createPage(c.editor, 'p3', { tags: ['gamma', 'beta'] });
    const first = await c.reader.get('/api/tags?limit=2').expect(200);
    expect(first.body).toEqual({
      items: [
        { name: 'alpha', count: 1 },
        { name: 'beta', count: 3 },
      ],
      nextCursor: expect.any(String),
    });
    const second = await c.reader
      .get(`/api/tags?limit=2&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(second.body).toEqual({ items: [{ name: 'gamma', count: 1 }], nextCursor: null });
    await updatePage(c.editor, 'p3', { tags: [] });
    expect(await allItems(c.reader, '/api/tags')).toEqual([
      { name: 'alpha', count: 1 },
      { name: 'beta', count: 2 },
    ]);
  });

  it('records media references for mediaReferences (live and binned pages)', async () => {
    const image = '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    const file = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    await createPage(c.editor, 'with-image', { content: `![x](/api/images/${image}/content)` });
    await createPage(c.editor, 'with-both', {
      content: `![x](/api/images/${image}/content) [f](/api/attachments/${file}/content)`,
    });
    const browse = c.t.get(PageBrowseService);
    // The admin's view: every referencing page, live or in the bin, by slug.
    const admin = { id: c.admin.user!.id, role: 'admin' as const, groups: [] };
    const slugsReferencing = async (id: string) => (await browse.mediaReferences(id, admin)).slugs;
    expect(await slugsReferencing(image)).toEqual(['with-both', 'with-image']);
    expect(await slugsReferencing(file)).toEqual(['with-both']);
    await c.admin.delete('/api/pages/with-image').expect(204);
    expect(await slugsReferencing(image)).toEqual(['with-both', 'with-image']);
    await updatePage(c.editor, 'with-both', { content: 'no media' });
    expect(await slugsReferencing(file)).toEqual([]);
  });
});
