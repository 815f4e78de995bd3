import { EventEmitter2 } from '@nestjs/event-emitter';
import { anonymous } from '../support/users';
import { problem } from '../support/problems';
import { usePagesApp, allItems, createPage, expectedPage, ISO_DATE } from '../support/pages';
import { PAGE_CREATED, PAGE_UPDATED } from '../../src/common/events/domain-events';

describe('pages: revisions and events', () => {
  const c = usePagesApp();

  it('every change writes a revision: list newest first, paged, with author and action', async () => {
    await createPage(c.editor, 'doc', { content: 'v1', tags: ['a'] });
    await c.admin
      .put('/api/pages/doc')
      .send({ baseRevision: 1, content: 'v2', title: 'Second' })
      .expect(200);
    await c.editor
      .put('/api/pages/doc')
      .send({ baseRevision: 2, tags: ['b'] })
      .expect(200);
    const first = await c.reader.get('/api/revisions?slug=DOC&limit=2').expect(200);
    expect(first.body).toEqual({
      items: [
        {
          id: expect.any(String),
          revision: 3,
          title: 'Second',
          action: 'updated',
          summary: null,
          author: c.editor.user!.username,
          coAuthors: [],
          createdAt: ISO_DATE,
        },
        {
          id: expect.any(String),
          revision: 2,
          title: 'Second',
          action: 'updated',
          summary: null,
          author: c.admin.user!.username,
          coAuthors: [],
          createdAt: ISO_DATE,
        },
      ],
      nextCursor: expect.any(String),
    });
    const second = await c.reader
      .get(`/api/revisions?slug=doc&limit=2&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(second.body).toEqual({
      items: [
        {
          id: expect.any(String),
          revision: 1,
          title: 'Title of doc',
          action: 'created',
          summary: null,
          author: c.editor.user!.username,
          coAuthors: [],
          createdAt: ISO_DATE,
        },
      ],
      nextCursor: null,
    });

    const one = await c.reader.get(`/api/revisions/${second.body.items[0].id}`).expect(200);
    expect(one.body).toEqual({
      id: second.body.items[0].id,
      revision: 1,
      title: 'Title of doc',
      action: 'created',
      summary: null,
      author: c.editor.user!.username,
      coAuthors: [],
      createdAt: ISO_DATE,
      slug: 'doc',
      content: 'v1',
      metadata: {
        icon: null,
        language: null,
        tags: ['a'],
        lifecycle: 'published',
        owner: c.editor.user!.username,
        reviewIntervalDays: null,
        nextReviewAt: null,
        groups: [],
        deprecatedTarget: null,
        properties: {},
        variables: {},
        verified: false,
      },
    });
  });

  it('restores a revision as a new revision (title, content, metadata)', async () => {
    await createPage(c.editor, 'doc', { content: 'v1', tags: ['a'], properties: { k: 1 } });
    await c.editor
      .put('/api/pages/doc')
      .send({ baseRevision: 1, content: 'v2', tags: ['b'], title: 'Changed', properties: {} })
      .expect(200);
    const [, oldest] = await allItems(c.reader, '/api/revisions?slug=doc');
    const restored = await c.editor
      .post(`/api/revisions/${oldest.id}/restore`)
      .send({})
      .expect(200);
    expect(restored.body).toEqual(
      expectedPage({
        slug: 'doc',
        title: 'Title of doc',
        content: 'v1',
        tags: ['a'],
        properties: { k: 1 },
        revision: 3,
        html: '<p>v1</p>\n',
        owner: c.editor.user!.username,
        updatedBy: c.editor.user!.username,
      }),
    );
    const list = await allItems(c.reader, '/api/revisions?slug=doc');
    expect(list.map((r) => [r.revision, r.action])).toEqual([
      [3, 'restored'],
      [2, 'updated'],
      [1, 'created'],
    ]);
    // A stale precondition refuses the restore.
    await c.editor
      .post(`/api/revisions/${oldest.id}/restore`)
      .send({ baseRevision: 2 })
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(problem(409, 'revision_conflict', { currentRevision: 3 })),
      );
    await c.editor
      .post(`/api/revisions/${oldest.id}/restore`)
      .set('If-Match', '"2"')
      .send({})
      .expect(412)
      .expect((r) =>
        expect(r.body).toEqual(problem(412, 'revision_mismatch', { currentRevision: 3 })),
      );
  });

  it('answers 400 / 404 / 422 on the revision routes', async () => {
    await c.reader
      .get('/api/revisions')
      .expect(400)
      .expect((r) => expect(r.body).toEqual(problem(400, 'slug_required')));
    await c.reader
      .get('/api/revisions?slug=missing')
      .expect(404)
      .expect((r) => expect(r.body).toEqual(problem(404, 'page_not_found')));
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      await c.reader
        .get(`/api/revisions/${id}`)
        .expect(404)
        .expect((r) => expect(r.body).toEqual(problem(404, 'revision_not_found')));
      await c.editor.post(`/api/revisions/${id}/restore`).send({}).expect(404);
    }
    await createPage(c.editor, 'doc');
    const [rev] = await allItems(c.reader, '/api/revisions?slug=doc');
    await c.editor
      .post(`/api/revisions/${rev.id}/restore`)
      .send({ baseRevision: 'one' })
      .expect(400)
      .expect((r) =>
        expect(r.body.errors[0]).toEqual(expect.objectContaining({ field: 'baseRevision' })),
      );
    await c.reader.get('/api/revisions?slug=doc&cursor=abc').expect(400);
    await anonymous(c.t).get(`/api/revisions/${rev.id}`).expect(401);
  });

  it('emits page.created and page.updated after commit, with owner and actor', async () => {
    const events: [string, unknown][] = [];
    const emitter = c.t.get(EventEmitter2);
    const onCreated = (e: unknown) => events.push([PAGE_CREATED, e]);
    const onUpdated = (e: unknown) => events.push([PAGE_UPDATED, e]);
    emitter.on(PAGE_CREATED, onCreated);
    emitter.on(PAGE_UPDATED, onUpdated);
    try {
      const page = await createPage(c.editor, 'evented', { owner: c.admin.user!.username });
      await c.editor.put('/api/pages/evented').send({ baseRevision: 1, content: 'x' }).expect(200);
      await c.editor
        .put('/api/pages/evented')
        .send({ baseRevision: 1, content: 'stale' })
        .expect(409);
      const id = (await c.t.dataSource.query('SELECT id FROM pages'))[0].id;
      expect(page.slug).toBe('evented');
      expect(events).toEqual([
        [
          PAGE_CREATED,
          {
            pageId: id,
            slug: 'evented',
            title: 'Title of evented',
            ownerId: c.admin.user!.id,
            actorId: c.editor.user!.id,
            summary: null,
          },
        ],
        [
          PAGE_UPDATED,
          {
            pageId: id,
            slug: 'evented',
            title: 'Title of evented',
            revision: 2,
            ownerId: c.admin.user!.id,
            actorId: c.editor.user!.id,
            summary: null,
          },
        ],
      ]);
    } finally {
      emitter.off(PAGE_CREATED, onCreated);
      emitter.off(PAGE_UPDATED, onUpdated);
    }
  });
});
