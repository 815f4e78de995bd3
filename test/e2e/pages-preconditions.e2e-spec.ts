import { problem } from '../support/problems';
import { allItems, createPage, usePagesApp } from '../support/pages';

/** If-Match compares strongly (RFC 9110 §13.1.1); `*` names no revision for an update. */
describe('pages: If-Match preconditions', () => {
  const c = usePagesApp();

  const content = async (slug: string) =>
    (await c.reader.get(`/api/pages/${slug}`).expect(200)).body as {
      content: string;
      revision: number;
    };

  it('a weak ETag never matches an update: 412, nothing written', async () => {
    await createPage(c.editor, 'doc', { content: 'one' });
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', 'W/"1"')
      .send({ content: 'weak' })
      .expect(412)
      .expect((r) =>
        expect(r.body).toEqual(problem(412, 'revision_mismatch', { currentRevision: 1 })),
      );
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', 'W/"1"')
      .send({ content: 'weak', baseRevision: 1 })
      .expect(412)
      .expect((r) =>
        expect(r.body).toEqual(problem(412, 'revision_mismatch', { currentRevision: 1 })),
      );
    // A strong tag that is not one of our revisions does not match either.
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '"abc"')
      .send({ content: 'foreign' })
      .expect(412);
    expect(await content('doc')).toEqual(expect.objectContaining({ content: 'one', revision: 1 }));
  });

  it('If-Match: * names no revision: 428 precondition_required, unless baseRevision does', async () => {
    await createPage(c.editor, 'doc', { content: 'one' });
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '*')
      .send({ content: 'blind' })
      .expect(428)
      .expect((r) => expect(r.body).toEqual(problem(428, 'precondition_required')));
    expect((await content('doc')).content).toBe('one');
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '*')
      .send({ content: 'stale', baseRevision: 2 })
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(problem(409, 'revision_conflict', { currentRevision: 1 })),
      );
    const ok = await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '*')
      .send({ content: 'based', baseRevision: 1 })
      .expect(200);
    expect(ok.headers.etag).toBe('"2"');
  });

  it('a list of strong ETags matches when it names the current revision', async () => {
    await createPage(c.editor, 'doc', { content: 'one' });
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '"1"')
      .send({ content: 'two' })
      .expect(200);
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '"7", "1"')
      .send({ content: 'lost' })
      .expect(412)
      .expect((r) =>
        expect(r.body).toEqual(problem(412, 'revision_mismatch', { currentRevision: 2 })),
      );
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', 'W/"2", "1"')
      .send({ content: 'lost' })
      .expect(412);
    const res = await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '"1", "2"')
      .send({ content: 'three' })
      .expect(200);
    expect(res.body).toEqual(expect.objectContaining({ content: 'three', revision: 3 }));
    // baseRevision must be one of the listed tags, and current.
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '"3", "4"')
      .send({ content: 'x', baseRevision: 5 })
      .expect(400)
      .expect((r) => expect(r.body).toEqual(problem(400, 'conflicting_preconditions')));
    await c.editor
      .put('/api/pages/doc')
      .set('If-Match', '"2", "3"')
      .send({ content: 'x', baseRevision: 2 })
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(problem(409, 'revision_conflict', { currentRevision: 3 })),
      );
    expect(await content('doc')).toEqual(
      expect.objectContaining({ content: 'three', revision: 3 }),
    );
  });

  it('malformed If-Match is 400 invalid_if_match', async () => {
    await createPage(c.editor, 'doc');
    for (const header of ['1', '"1', 'w/"1"', '"1" "2"', '*, "1"']) {
      await c.editor
        .put('/api/pages/doc')
        .set('If-Match', header)
        .send({ content: 'x' })
        .expect(400)
        .expect((r) => expect(r.body).toEqual(problem(400, 'invalid_if_match')));
    }
  });

  it('restoring a revision: a weak tag is 412, * and listed strong tags pass', async () => {
    await createPage(c.editor, 'doc', { content: 'v1' });
    await c.editor.put('/api/pages/doc').send({ baseRevision: 1, content: 'v2' }).expect(200);
    const [, oldest] = await allItems(c.reader, '/api/revisions?slug=doc');
    await c.editor
      .post(`/api/revisions/${oldest.id}/restore`)
      .set('If-Match', 'W/"2"')
      .send({})
      .expect(412)
      .expect((r) =>
        expect(r.body).toEqual(problem(412, 'revision_mismatch', { currentRevision: 2 })),
      );
    await c.editor
      .post(`/api/revisions/${oldest.id}/restore`)
      .set('If-Match', '"1", "2"')
      .send({})
      .expect(200);
    await c.editor
      .post(`/api/revisions/${oldest.id}/restore`)
      .set('If-Match', '*')
      .send({})
      .expect(200)
      .expect((r) => expect(r.body.revision).toBe(4));
  });

  it('DELETE: a weak tag is 412, a strong current one or * bins the page', async () => {
    await createPage(c.editor, 'a');
    await createPage(c.editor, 'b');
    await c.admin
      .delete('/api/pages/a')
      .set('If-Match', 'W/"1"')
      .expect(412)
      .expect((r) =>
        expect(r.body).toEqual(problem(412, 'revision_mismatch', { currentRevision: 1 })),
      );
    await c.reader.get('/api/pages/a').expect(200);
    await c.admin.delete('/api/pages/a').set('If-Match', '"0", "1"').expect(204);
    await c.admin.delete('/api/pages/b').set('If-Match', '*').expect(204);
    await c.reader.get('/api/pages/a').expect(404);
    await c.reader.get('/api/pages/b').expect(404);
  });
});
