import { problem } from '../support/problems';
import { usePagesApp, allItems, createPage, expectedPage, ISO_DATE } from '../support/pages';
import { PagesTable } from '../../src/pages/store/page.entity';
import { PageRevisionsTable } from '../../src/pages/store/page-revision.entity';
import { PAGE_BINNED, PAGE_RESTORED, PAGE_UPDATED } from '../../src/common/events/domain-events';
import { EventEmitter2 } from '@nestjs/event-emitter';

describe('pages: bin', () => {
  const c = usePagesApp();

  const binItems = async () => allItems(c.admin, '/api/bin');

  it('DELETE moves the page to the bin, hides it everywhere and frees the slug', async () => {
    const events: unknown[] = [];
    c.t.get(EventEmitter2).on(PAGE_BINNED, (e) => events.push(e));
    await createPage(c.editor, 'doomed', { tags: ['t'], content: '[other](/other)' });
    await createPage(c.editor, 'other', { content: '[d](/doomed)' });
    await c.editor
      .put('/api/pages/doomed')
      .send({ baseRevision: 1, content: '[other](/other) v2' })
      .expect(200);
    await c.admin.delete('/api/pages/doomed').expect(204);

    await c.editor.get('/api/pages/doomed').expect(404);
    await c.admin.get('/api/pages/doomed').expect(404);
    await c.admin.get('/api/pages/doomed/raw').expect(404);
    await c.admin.get('/api/revisions?slug=doomed').expect(404);
    expect((await allItems(c.admin, '/api/pages')).map((p) => p.slug)).toEqual(['other']);
    expect(await allItems(c.admin, '/api/tags')).toEqual([]);
    expect((await c.admin.get('/api/graph').expect(200)).body).toEqual({
      nodes: [{ slug: 'other', title: 'Title of other', tags: [] }],
      edges: [],
    });
    expect((await c.admin.get('/api/pages/other').expect(200)).body.backlinks).toEqual([]);
    const page = await c.t.dataSource.getRepository(PagesTable).findOneByOrFail({ slug: 'doomed' });
    expect(events).toEqual([
      {
        pageId: page.id,
        slug: 'doomed',
        title: 'Title of doomed',
        ownerId: c.editor.user!.id,
        actorId: c.admin.user!.id,
      },
    ]);

    expect(await binItems()).toEqual([
      {
        id: page.id,
        slug: 'doomed',
        title: 'Title of doomed',
        revision: 2,
        updatedAt: ISO_DATE,
        binnedAt: ISO_DATE,
        binnedBy: c.admin.user!.username,
      },
    ]);
    // The slug is free again.
    await createPage(c.editor, 'doomed', { content: 'a new page' });
  });

  it('restores a binned page with its revisions (200), or 409 while the slug is taken', async () => {
    await createPage(c.editor, 'phoenix', { content: 'first' });
    await c.editor
      .put('/api/pages/phoenix')
      .send({ baseRevision: 1, content: 'second' })
      .expect(200);
    await c.admin.delete('/api/pages/phoenix').expect(204);
    const [{ id }] = await binItems();

    await createPage(c.editor, 'phoenix', { content: 'usurper' });
    await c.admin
      .post(`/api/bin/${id}/restore`)
      .expect(409)
      .expect((r) => expect(r.body).toEqual(problem(409, 'slug_taken', { slug: 'phoenix' })));
    await c.admin.delete('/api/pages/phoenix').expect(204);
    expect(await binItems()).toHaveLength(2);

    const restored = await c.admin.post(`/api/bin/${id}/restore`).expect(200);
    expect(restored.body).toEqual(
      expectedPage({
        slug: 'phoenix',
        title: 'Title of phoenix',
        content: 'second',
        revision: 2,
        html: '<p>second</p>\n',
        owner: c.editor.user!.username,
        updatedBy: c.editor.user!.username,
      }),
    );
    const revisions = await c.admin.get('/api/revisions?slug=phoenix').expect(200);
    expect(revisions.body.items.map((r: { revision: number }) => r.revision)).toEqual([2, 1]);
    expect((await binItems()).map((b) => b.slug)).toEqual(['phoenix']);
    await c.admin.post(`/api/bin/${id}/restore`).expect(404);
  });

  it('restores under a new slug (a new revision, links resolved there); refuses a bad or taken one whole', async () => {
    await createPage(c.editor, 'team/phoenix', {
      content: 'see [sibling](sibling) and [top](/top)',
      tags: ['bird'],
    });
    await c.admin.delete('/api/pages/team/phoenix').expect(204);
    const [{ id }] = await binItems();
    await createPage(c.editor, 'team/phoenix', { content: 'usurper' });
    await createPage(c.editor, 'archive/taken', { content: 'here first' });
    const unchanged = async () => {
      const [item] = await binItems();
      expect(item).toMatchObject({ id, slug: 'team/phoenix' });
      const row = await c.t.dataSource.getRepository(PagesTable).findOneByOrFail({ id });
      expect(row).toMatchObject({ slug: 'team/phoenix', liveSlug: null, revision: 1 });
      expect(await c.t.dataSource.getRepository(PageRevisionsTable).countBy({ pageId: id })).toBe(
        1,
      );
    };

    // The new slug is taken too: 409 naming it, nothing changes.
    await c.admin
      .post(`/api/bin/${id}/restore`)
      .send({ slug: 'archive/taken' })
      .expect(409)
      .expect((r) => expect(r.body).toEqual(problem(409, 'slug_taken', { slug: 'archive/taken' })));
    await unchanged();
    // The rules of page create: an invalid slug is 422 on `slug`, a non-string 400.
    for (const slug of ['', 'a//b', 'docs/raw', 'x'.repeat(300)]) {
      const res = await c.admin.post(`/api/bin/${id}/restore`).send({ slug }).expect(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('slug');
    }
    await c.admin.post(`/api/bin/${id}/restore`).send({ slug: 42 }).expect(400);
    await c.admin.post(`/api/bin/${id}/restore`).send({ slug: null }).expect(400);
    await unchanged();
    // Editors may not restore at all.
    await c.editor.post(`/api/bin/${id}/restore`).send({ slug: 'archive/phoenix' }).expect(403);
    await unchanged();

    const restored = await c.admin
      .post(`/api/bin/${id}/restore`)
      .send({ slug: ' Archive/Phoenix ' })
      .expect(200);
    expect(restored.body).toMatchObject({
      slug: 'archive/phoenix',
      content: 'see [sibling](sibling) and [top](/top)',
      revision: 2,
      tags: ['bird'],
      updatedBy: c.admin.user!.username,
    });
    await c.admin.get('/api/pages/archive/phoenix').expect(200);
    // The usurper keeps its slug; the bin is empty.
    const usurper = await c.admin.get('/api/pages/team/phoenix').expect(200);
    expect(usurper.body.content).toBe('usurper');
    expect(await binItems()).toEqual([]);
    // The move is a revision; relative links now resolve against the new slug.
    const revisions = await c.admin.get('/api/revisions?slug=archive/phoenix').expect(200);
    expect(revisions.body.items.map((r: { revision: number }) => r.revision)).toEqual([2, 1]);
    const links: { target_slug: string }[] = await c.t.dataSource.query(
      'SELECT target_slug FROM page_links WHERE source_page_id = ?',
      [id],
    );
    expect(links.map((l) => l.target_slug).sort()).toEqual(['archive/sibling', 'top']);
    await c.admin.post(`/api/bin/${id}/restore`).send({ slug: 'elsewhere' }).expect(404);
  });

  it('purges a binned page with its revisions, tags and links', async () => {
    await createPage(c.editor, 'gone', { tags: ['x'], content: '[a](/a)' });
    await c.admin.delete('/api/pages/gone').expect(204);
    const [{ id }] = await binItems();
    await c.admin.delete(`/api/bin/${id}`).expect(204);
    expect(await binItems()).toEqual([]);
    expect(await c.t.dataSource.getRepository(PagesTable).countBy({ id })).toBe(0);
    expect(await c.t.dataSource.getRepository(PageRevisionsTable).countBy({ pageId: id })).toBe(0);
    const left = (sql: string) => c.t.dataSource.query(sql, [id]);
    expect(await left('SELECT page_id FROM page_tags WHERE page_id = ?')).toEqual([]);
    expect(await left('SELECT source_page_id FROM page_links WHERE source_page_id = ?')).toEqual(
      [],
    );
    await c.admin.delete(`/api/bin/${id}`).expect(404);
    await c.admin.post(`/api/bin/${id}/restore`).expect(404);
  });

  it('bin routes answer 404 for live pages, unknown and malformed ids', async () => {
    await createPage(c.editor, 'alive');
    const live = await c.t.dataSource.getRepository(PagesTable).findOneByOrFail({ slug: 'alive' });
    for (const id of [live.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      await c.admin.post(`/api/bin/${id}/restore`).expect(404);
      await c.admin
        .delete(`/api/bin/${id}`)
        .expect(404)
        .expect((r) => expect(r.body).toEqual(problem(404, 'page_not_found')));
    }
    await c.admin.get('/api/pages/alive').expect(200);
  });

  it('DELETE honours a stale If-Match with 412', async () => {
    await createPage(c.editor, 'kept');
    await c.editor.put('/api/pages/kept').send({ baseRevision: 1, content: 'v2' }).expect(200);
    await c.admin
      .delete('/api/pages/kept')
      .set('If-Match', '"1"')
      .expect(412)
      .expect((r) =>
        expect(r.body).toEqual(problem(412, 'revision_mismatch', { currentRevision: 2 })),
      );
    await c.admin.delete('/api/pages/kept').set('If-Match', '"2"').expect(204);
  });

  it('restoring from the bin emits page.restored, from a revision page.updated, after commit', async () => {
    const events: unknown[] = [];
    const emitter = c.t.get(EventEmitter2);
    const onUpdated = (e: object) => events.push({ event: PAGE_UPDATED, ...e });
    const onRestored = (e: object) => events.push({ event: PAGE_RESTORED, ...e });
    emitter.on(PAGE_UPDATED, onUpdated);
    emitter.on(PAGE_RESTORED, onRestored);
    try {
      const owner = c.editor.user!;
      await createPage(c.editor, 'back', { owner: owner.username });
      const [page] = await c.t.dataSource.getRepository(PagesTable).find();
      await c.admin.delete('/api/pages/back').expect(204);
      const [{ id }] = await binItems();
      expect(events).toEqual([]);
      await c.admin.post(`/api/bin/${id}/restore`).expect(200);
      const expected = {
        pageId: page.id,
        slug: 'back',
        title: 'Title of back',
        ownerId: owner.id,
        actorId: c.admin.user!.id,
      };
      expect(events).toEqual([{ event: PAGE_RESTORED, ...expected, revision: 1 }]);
      // A second restore of the same id is 404 and emits nothing.
      await c.admin.post(`/api/bin/${id}/restore`).expect(404);
      expect(events).toHaveLength(1);

      const [first] = await allItems(c.reader, '/api/revisions?slug=back');
      await c.admin.post(`/api/revisions/${first.id}/restore`).send({}).expect(200);
      expect(events).toEqual([
        { event: PAGE_RESTORED, ...expected, revision: 1 },
        { event: PAGE_UPDATED, ...expected, revision: 2, summary: null },
      ]);
    } finally {
      emitter.off(PAGE_UPDATED, onUpdated);
      emitter.off(PAGE_RESTORED, onRestored);
    }
  });

  it('pages the bin with limit and cursor, newest first', async () => {
    for (const slug of ['b1', 'b2', 'b3']) {
      await createPage(c.editor, slug);
      await c.admin.delete(`/api/pages/${slug}`).expect(204);
    }
    const first = await c.admin.get('/api/bin?limit=2').expect(200);
    expect(first.body.items.map((b: { slug: string }) => b.slug)).toEqual(['b3', 'b2']);
    const second = await c.admin
      .get(`/api/bin?limit=2&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(second.body).toEqual({
      items: [expect.objectContaining({ slug: 'b1' })],
      nextCursor: null,
    });
  });
});
