import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

async function rows(t: TestApp, sql: string): Promise<number> {
  const [row] = await t.dataSource.query(sql);
  return Number(row.n);
}

describe('POST /api/batch', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    await createPage(admin, 'b/one', { content: 'One.' });
    await createPage(admin, 'b/two', { content: 'Two.' });
    await createPage(admin, 'b/three', { content: 'Three.' });
  });

  const pageCount = () => rows(t, 'SELECT COUNT(*) AS n FROM pages WHERE live_slug IS NOT NULL');
  const revisionCount = () => rows(t, 'SELECT COUNT(*) AS n FROM page_revisions');
  const eventCount = () => rows(t, 'SELECT COUNT(*) AS n FROM events');

  it('applies every operation in order in one transaction and answers one result each', async () => {
    const events = await eventCount();
    const res = await admin
      .post('/api/batch')
      .send({
        operations: [
          { op: 'create', slug: 'b/new', title: 'New', content: 'Fresh.', tags: ['x'] },
          { op: 'update', slug: 'b/one', ifMatch: '"1"', content: 'One, changed.' },
          { op: 'metadata', slug: 'b/two', tags: ['t1', 't2'], lifecycle: 'deprecated' },
          { op: 'move', slug: 'b/three', to: 'c/three' },
          { op: 'bin', slug: 'b/old', ifMatch: 1 },
        ].filter((op) => op.slug !== 'b/old'),
      })
      .expect(200);
    expect(res.body).toEqual({
      results: [
        { index: 0, op: 'create', slug: 'b/new', id: expect.any(String), revision: 1 },
        { index: 1, op: 'update', slug: 'b/one', id: expect.any(String), revision: 2 },
        { index: 2, op: 'metadata', slug: 'b/two', id: expect.any(String), revision: 2 },
        { index: 3, op: 'move', slug: 'b/three', moved: [{ from: 'b/three', to: 'c/three' }] },
      ],
    });
    expect((await admin.get('/api/pages/b/new').expect(200)).body).toMatchObject({
      content: 'Fresh.',
      tags: ['x'],
    });
    expect((await admin.get('/api/pages/b/one').expect(200)).body.content).toBe('One, changed.');
    expect((await admin.get('/api/pages/b/two').expect(200)).body).toMatchObject({
      tags: ['t1', 't2'],
      lifecycle: 'deprecated',
      content: 'Two.',
    });
    await admin.get('/api/pages/c/three').expect(200);
    // Events as for single writes, after the commit: one per change.
    expect(await eventCount()).toBe(events + 4);

    const bin = await admin
      .post('/api/batch')
      .send({ operations: [{ op: 'bin', slug: 'b/new', ifMatch: '"1"' }] })
      .expect(200);
    expect(bin.body.results).toEqual([
      { index: 0, op: 'bin', slug: 'b/new', id: expect.any(String) },
    ]);
    await admin.get('/api/pages/b/new').expect(404);
  });

  it('applies nothing when one operation fails, naming its index (stale If-Match)', async () => {
    const before = {
      pages: await pageCount(),
      revisions: await revisionCount(),
      events: await eventCount(),
    };
    const res = await editor
      .post('/api/batch')
      .send({
        operations: [
          { op: 'create', slug: 'b/a1', title: 'A1' },
          { op: 'update', slug: 'b/one', ifMatch: '"1"', content: 'changed' },
          { op: 'move', slug: 'b/two', to: 'b/two-moved' },
          { op: 'update', slug: 'b/three', ifMatch: '"7"', content: 'stale' },
        ],
      })
      .expect(412);
    expect(res.body).toEqual(
      problem(412, 'revision_mismatch', { index: 3, op: 'update', currentRevision: 1 }),
    );
    expect(res.body.detail).toMatch(/^Operation 3 \(update\)/);
    expect({
      pages: await pageCount(),
      revisions: await revisionCount(),
      events: await eventCount(),
    }).toEqual(before);
    await admin.get('/api/pages/b/a1').expect(404);
    await admin.get('/api/pages/b/two').expect(200);
    expect((await admin.get('/api/pages/b/one').expect(200)).body.content).toBe('One.');
  });

  it('refuses bad operations before writing: 422 naming each, taken slugs, roles, limits', async () => {
    const before = await revisionCount();
    const bad = await editor
      .post('/api/batch')
      .send({
        operations: [
          { op: 'create', slug: 'b/ok', title: 'Ok' },
          { op: 'explode', slug: 'b/x' },
          { op: 'create', slug: 'b/../etc', title: 'x' },
          { op: 'move', slug: 'b/two' },
          { op: 'metadata', slug: 'b/three', content: 'not metadata' },
          { op: 'update', slug: 'b/ok', ifMatch: '"1"', title: 'again' },
        ],
      })
      .expect(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining([
        'operations[1].op',
        'operations[3].to',
        'operations[4].content',
        'operations[5].slug',
      ]),
    );
    const dots = await editor
      .post('/api/batch')
      .send({ operations: [{ op: 'create', slug: 'b/../etc', title: 'x' }] })
      .expect(422);
    expect(dots.body).toMatchObject({ index: 0, op: 'create' });
    expect(dots.body.errors[0]).toMatchObject({
      field: 'operations[0].slug',
      code: 'slug_dot_segment',
    });
    // A member of the wrong JSON type is a 400 naming the operation.
    const typed = await editor
      .post('/api/batch')
      .send({ operations: [{ op: 'update', slug: 'b/one', ifMatch: '"1"', content: 5 }] })
      .expect((r) => expect([400, 422]).toContain(r.status));
    expect(typed.body).toMatchObject({ index: 0, errors: [{ field: 'operations[0].content' }] });
    const taken = await editor
      .post('/api/batch')
      .send({
        operations: [
          { op: 'create', slug: 'b/fresh', title: 'Fresh' },
          { op: 'create', slug: 'b/one', title: 'Taken' },
        ],
      })
      .expect(409);
    expect(taken.body).toEqual(
      problem(409, 'slug_taken', { index: 1, op: 'create', slug: 'b/one' }),
    );
    const notFound = await editor
      .post('/api/batch')
      .send({ operations: [{ op: 'update', slug: 'b/missing', ifMatch: '"1"', content: 'x' }] })
      .expect(404);
    expect(notFound.body).toMatchObject({ code: 'page_not_found', index: 0 });
    const precondition = await editor
      .post('/api/batch')
      .send({ operations: [{ op: 'update', slug: 'b/one', content: 'x' }] })
      .expect(428);
    expect(precondition.body).toMatchObject({ code: 'precondition_required', index: 0 });
    const binByEditor = await editor
      .post('/api/batch')
      .send({ operations: [{ op: 'bin', slug: 'b/one' }] })
      .expect(403);
    expect(binByEditor.body).toMatchObject({ code: 'insufficient_role', index: 0 });
    const reader = await signedIn(t, 'reader');
    await reader
      .post('/api/batch')
      .send({ operations: [{ op: 'create', slug: 'b/r', title: 'R' }] })
      .expect(403);
    const tooMany = await editor
      .post('/api/batch')
      .send({
        operations: Array.from({ length: 501 }, (_, i) => ({
          op: 'create',
          slug: `many/p${i}`,
          title: `P${i}`,
        })),
      })
      .expect(422);
    expect(tooMany.body.errors).toEqual([
      expect.objectContaining({ field: 'operations', code: 'too_many_operations' }),
    ]);
    await editor.post('/api/batch').send({ operations: [] }).expect(422);
    await editor
      .post('/api/batch')
      .send({ operations: 'no' })
      .expect((r) => expect([400, 422]).toContain(r.status));
    expect(await revisionCount()).toBe(before);
    await admin.get('/api/pages/b/fresh').expect(404);
    await admin.get('/api/pages/b/ok').expect(404);
  });

  it('applies 500 operations at once and honours Idempotency-Key', async () => {
    const operations = Array.from({ length: 500 }, (_, i) => ({
      op: 'create',
      slug: `bulk/p${i}`,
      title: `Page ${i}`,
      content: `Body ${i}.`,
    }));
    const before = await pageCount();
    const first = await editor
      .post('/api/batch')
      .set('Idempotency-Key', '"bulk-1"')
      .send({ operations })
      .expect(200);
    expect(first.body.results).toHaveLength(500);
    expect(first.body.results[499]).toMatchObject({ index: 499, slug: 'bulk/p499', revision: 1 });
    expect(await pageCount()).toBe(before + 500);
    const replay = await editor
      .post('/api/batch')
      .set('Idempotency-Key', '"bulk-1"')
      .send({ operations })
      .expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await pageCount()).toBe(before + 500);
  });
});
