import { createPage, updatePage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

const THREE = ['# Setup', '', 'Install it.', '', 'Run it.', '', 'Done.'].join('\n');

describe('change requests: propose, review, merge; protected paths', () => {
  let t: TestApp;
  let admin: Client;
  let author: Client;
  let reviewer: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'staff');
    await createGroup(t, 'legal');
    admin = await signedIn(t, 'admin');
    author = await signedIn(t, 'editor');
    reviewer = await signedIn(t, 'editor', { groups: ['legal'] });
    reader = await signedIn(t, 'reader');
  });

  const propose = (c: Client, body: Record<string, unknown>) =>
    c.post('/api/change-requests').send(body);
  const pageOf = async (slug: string) => (await admin.get(`/api/pages/${slug}`).expect(200)).body;
  const requestRows = async () =>
    (await t.dataSource.query('SELECT id, state, version FROM change_requests ORDER BY id')).map(
      (r: { id: unknown; state: string; version: unknown }) => ({
        id: Number(r.id),
        state: r.state,
        version: Number(r.version),
      }),
    );

  it('needs a caller on every route; reviews, merges and rules need their role', async () => {
    const anon = anonymous(t);
    await anon.get('/api/change-requests').expect(401);
    await anon.post('/api/change-requests').send({}).expect(401);
    await anon.get('/api/change-requests/1').expect(401);
    await anon.post('/api/change-requests/1/approve').expect(401);
    await anon.get('/api/protected-paths').expect(401);
    await author.get('/api/protected-paths').expect(403);
    await author.put('/api/protected-paths').send([]).expect(403);
    await createPage(admin, 'docs/a', { content: THREE });
    const made = await propose(reader, {
      title: 'Reader idea',
      changes: [{ slug: 'docs/a', action: 'update', content: `${THREE}\n\nMore.` }],
    }).expect(201);
    expect(made.headers.location).toBe(`/api/change-requests/${made.body.id}`);
    await reader.post(`/api/change-requests/${made.body.id}/approve`).expect(403);
    await reader.post(`/api/change-requests/${made.body.id}/merge`).expect(403);
    await anon.get(`/api/change-requests/${made.body.id}/links`).expect(401);
  });

  it('creates a request with its changes and answers it whole', async () => {
    const page = await createPage(admin, 'docs/setup', { content: THREE });
    const res = await propose(author, {
      title: 'Clarify setup',
      description: 'Why: people asked.',
      changes: [
        {
          slug: 'docs/setup',
          action: 'update',
          content: THREE.replace('Install it.', 'Install it with npm.'),
        },
        { slug: 'docs/new', action: 'create', title: 'New', content: 'See [setup](/docs/setup).' },
      ],
    }).expect(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      title: 'Clarify setup',
      description: 'Why: people asked.',
      state: 'open',
      version: 1,
      approvals: [],
      conflicts: [],
      approvalsMissing: 0,
      mergeable: true,
      slugs: ['docs/setup', 'docs/new'],
      url: `/change-requests/${res.body.id}`,
    });
    expect(res.body.changes[0]).toMatchObject({
      slug: 'docs/setup',
      action: 'update',
      baseRevision: page.revision,
      baseContent: THREE,
      currentRevision: page.revision,
    });
    const list = await author.get('/api/change-requests').expect(200);
    expect(list.body.items.map((i: { id: number }) => i.id)).toEqual([res.body.id]);
    const merged = await author.get('/api/change-requests?state=merged').expect(200);
    expect(merged.body.items).toEqual([]);
    await author.get('/api/change-requests?state=nope').expect(422);
  });

  it('refuses bad input with clear problems and writes nothing', async () => {
    await createPage(admin, 'docs/a');
    await createPage(admin, 'secret/plan', { groups: ['staff'] });
    const bad = async (body: Record<string, unknown>, status: number, code: string) => {
      const res = await propose(author, body).expect(status);
      expect(res.body.code).toBe(code);
      return res.body;
    };
    await bad({ title: 'x', changes: [] }, 422, 'validation_failed');
    await bad(
      { title: 'x', changes: [{ slug: 'docs/a', action: 'rename' }] },
      422,
      'validation_failed',
    );
    const slug = await bad(
      { title: 'x', changes: [{ slug: 'a//b', action: 'create', content: 'x' }] },
      422,
      'validation_failed',
    );
    expect(slug.errors[0].field).toBe('changes[0].slug');
    const move = await bad(
      { title: 'x', changes: [{ slug: 'docs/a', action: 'move' }] },
      422,
      'validation_failed',
    );
    expect(move.errors[0]).toMatchObject({ field: 'changes[0].to', code: 'required' });
    await bad(
      { title: 'x', changes: [{ slug: 'docs/a', action: 'update' }] },
      422,
      'validation_failed',
    );
    const twice = await bad(
      {
        title: 'x',
        changes: [
          { slug: 'docs/a', action: 'update', content: 'a' },
          { slug: 'docs/a', action: 'bin' },
        ],
      },
      422,
      'validation_failed',
    );
    expect(twice.errors[0].code).toBe('duplicate_slug');
    await bad(
      {
        title: 'x',
        changes: [{ slug: 'docs/a', action: 'update', content: 'a', baseRevision: 9 }],
      },
      422,
      'validation_failed',
    );
    await bad(
      { title: 'x', changes: [{ slug: 'docs/a', action: 'create', content: 'a' }] },
      409,
      'slug_taken',
    );
    // A page the author may not see answers exactly as a missing one.
    const hidden = await propose(author, {
      title: 'x',
      changes: [{ slug: 'secret/plan', action: 'update', content: 'leak?' }],
    }).expect(404);
    const missing = await propose(author, {
      title: 'x',
      changes: [{ slug: 'secret/nothing', action: 'update', content: 'leak?' }],
    }).expect(404);
    expect(hidden.body).toEqual(problem(404, 'page_not_found'));
    expect({ ...hidden.body, requestId: 'x' }).toEqual({ ...missing.body, requestId: 'x' });
    await bad(
      { title: 'x', reviewers: ['nobody-here'], changes: [{ slug: 'docs/a', action: 'bin' }] },
      422,
      'validation_failed',
    );
    expect(await requestRows()).toEqual([]);
  });

  it('hides a request touching a page the caller may not see, as if missing', async () => {
    await createPage(admin, 'secret/plan', { groups: ['staff'] });
    const staff = await signedIn(t, 'editor', { groups: ['staff'] });
    const made = await propose(staff, {
      title: 'Secret change',
      changes: [{ slug: 'secret/plan', action: 'update', content: 'new' }],
    }).expect(201);
    const hidden = await author.get(`/api/change-requests/${made.body.id}`).expect(404);
    expect(hidden.body).toEqual(problem(404, 'change_request_not_found'));
    await author.get('/api/change-requests/999').expect(404);
    await author.get('/api/change-requests/abc').expect(404);
    await author.post(`/api/change-requests/${made.body.id}/approve`).expect(404);
    await author.post(`/api/change-requests/${made.body.id}/merge`).expect(404);
    const list = await author.get('/api/change-requests?state=all').expect(200);
    expect(list.body.items).toEqual([]);
    await admin.get(`/api/change-requests/${made.body.id}`).expect(200);
  });

  it('protected paths: editors are refused direct saves; a request needs approvals by the named group', async () => {
    await admin
      .put('/api/protected-paths')
      .send([{ prefix: 'policies', approvals: 1, groups: ['legal'] }])
      .expect(200)
      .expect((r) =>
        expect(r.body).toEqual([
          { prefix: 'policies', approvals: 1, groups: ['legal'], users: [] },
        ]),
      );
    await admin.get('/api/protected-paths').expect(200);
    const bad = await admin
      .put('/api/protected-paths')
      .send([{ prefix: 'a//b', approvals: -1, groups: ['nope'] }])
      .expect(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['0.approvals']),
    );
    await admin.put('/api/protected-paths').send({ prefix: 'x' }).expect(400);

    // Administrators write directly (audited).
    const page = await createPage(admin, 'policies/leave', { content: THREE });
    const refused = await author
      .put('/api/pages/policies/leave')
      .send({ content: 'direct', baseRevision: page.revision })
      .expect(409);
    expect(refused.body).toEqual(
      problem(409, 'change_request_required', {
        prefix: 'policies',
        propose: '/api/change-requests',
        consoleUrl: '/change-requests/new',
      }),
    );
    await author
      .post('/api/pages')
      .send({ slug: 'policies/new', title: 'N', content: 'x' })
      .expect(409)
      .expect((r) => expect(r.body.code).toBe('change_request_required'));
    // Binning is for administrators anyway (who bypass, audited).
    await author.delete('/api/pages/policies/leave').expect(403);
    await author
      .post('/api/pages/move')
      .send({ from: 'policies/leave', to: 'other/leave' })
      .expect(409);
    expect((await pageOf('policies/leave')).revision).toBe(page.revision);

    const made = await propose(author, {
      title: 'Leave policy',
      changes: [
        { slug: 'policies/leave', action: 'update', content: THREE.replace('Done.', 'Finished.') },
      ],
    }).expect(201);
    const id = made.body.id;
    expect(made.body).toMatchObject({
      approvalsMissing: 1,
      mergeable: false,
      rules: [{ prefix: 'policies', approvals: 1, approved: 0, groups: ['legal'], users: [] }],
    });
    // Merging without approvals, approving one's own, an editor outside the group: refused.
    const early = await author.post(`/api/change-requests/${id}/merge`).expect(409);
    expect(early.body).toEqual(problem(409, 'approvals_required', { approvalsMissing: 1 }));
    const own = await author.post(`/api/change-requests/${id}/approve`).expect(403);
    expect(own.body).toEqual(problem(403, 'own_change_request'));
    const outsider = await signedIn(t, 'editor');
    await outsider
      .post(`/api/change-requests/${id}/approve`)
      .expect(403)
      .expect((r) => expect(r.body.code).toBe('not_a_reviewer'));
    expect((await pageOf('policies/leave')).revision).toBe(page.revision);

    const approved = await reviewer.post(`/api/change-requests/${id}/approve`).expect(200);
    expect(approved.body).toMatchObject({ approvalsMissing: 0, mergeable: true });
    expect(approved.body.approvals).toEqual([
      { username: expect.any(String), at: expect.any(String) },
    ]);
    const merged = await author.post(`/api/change-requests/${id}/merge`).expect(200);
    expect(merged.body).toMatchObject({ state: 'merged', conflicts: [], mergeable: false });
    const after = await pageOf('policies/leave');
    expect(after.content).toBe(THREE.replace('Done.', 'Finished.'));
    const revisions = await admin.get(`/api/revisions?slug=policies/leave`).expect(200);
    expect(revisions.body.items[0].summary).toBe(`Change request #${id}: Leave policy`);
    await author.post(`/api/change-requests/${id}/merge`).expect(409);
    await reviewer.post(`/api/change-requests/${id}/approve`).expect(409);
  });

  it('an update lets earlier approvals lapse; request-changes and close', async () => {
    await admin
      .put('/api/protected-paths')
      .send([{ prefix: 'policies', approvals: 1 }])
      .expect(200);
    await createPage(admin, 'policies/a', { content: THREE });
    const made = await propose(author, {
      title: 'One',
      changes: [{ slug: 'policies/a', action: 'update', content: 'v1' }],
    }).expect(201);
    const id = made.body.id;
    await reviewer.post(`/api/change-requests/${id}/approve`).expect(200);
    const updated = await author
      .put(`/api/change-requests/${id}`)
      .send({
        title: 'One, again',
        changes: [{ slug: 'policies/a', action: 'update', content: 'v2' }],
      })
      .expect(200);
    expect(updated.body).toMatchObject({ version: 2, approvalsMissing: 1, approvals: [] });
    expect(updated.body.reviews).toEqual([
      expect.objectContaining({ verdict: 'approved', current: false }),
    ]);
    await reviewer
      .put(`/api/change-requests/${id}`)
      .send({ title: 'x', changes: [{ slug: 'policies/a', action: 'bin' }] })
      .expect(403);
    const asked = await reviewer.post(`/api/change-requests/${id}/request-changes`).expect(200);
    expect(asked.body.reviews).toEqual([
      expect.objectContaining({ verdict: 'changes_requested', current: true }),
    ]);
    await reader.post(`/api/change-requests/${id}/close`).expect(403);
    const closed = await author.post(`/api/change-requests/${id}/close`).expect(200);
    expect(closed.body).toMatchObject({ state: 'closed', closedBy: expect.any(String) });
    await author.post(`/api/change-requests/${id}/merge`).expect(409);
    expect(await requestRows()).toEqual([{ id, state: 'closed', version: 2 }]);
    // The author heard of the request for changes and the close was theirs.
    const inbox = (await author.get('/api/notifications').expect(200)).body.items;
    expect(inbox).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'change_request',
          data: expect.objectContaining({ requestId: id, action: 'changes_requested' }),
        }),
      ]),
    );
  });

  it('merges a non-overlapping concurrent edit and blocks an overlapping one', async () => {
    const page = await createPage(admin, 'docs/setup', { content: THREE });
    const made = await propose(author, {
      title: 'Install with npm',
      changes: [
        {
          slug: 'docs/setup',
          action: 'update',
          content: THREE.replace('Install it.', 'Install it with npm.'),
          baseRevision: page.revision,
        },
      ],
    }).expect(201);
    await updatePage(admin, 'docs/setup', { content: THREE.replace('Done.', 'Done, finally.') });
    const clean = await author.get(`/api/change-requests/${made.body.id}`).expect(200);
    expect(clean.body.conflicts).toEqual([]);
    await author.post(`/api/change-requests/${made.body.id}/merge`).expect(200);
    expect((await pageOf('docs/setup')).content).toBe(
      THREE.replace('Install it.', 'Install it with npm.').replace('Done.', 'Done, finally.'),
    );

    const current = await pageOf('docs/setup');
    const overlapping = await propose(author, {
      title: 'Run twice',
      changes: [
        {
          slug: 'docs/setup',
          action: 'update',
          content: current.content.replace('Run it.', 'Run it twice.'),
        },
      ],
    }).expect(201);
    await updatePage(admin, 'docs/setup', {
      content: current.content.replace('Run it.', 'Run it once.'),
    });
    const blocked = await author.get(`/api/change-requests/${overlapping.body.id}`).expect(200);
    expect(blocked.body).toMatchObject({ mergeable: false });
    expect(blocked.body.conflicts).toEqual([
      {
        slug: 'docs/setup',
        reason: 'overlapping_edits',
        hunks: [{ line: 5, base: 'Run it.', proposed: 'Run it twice.', current: 'Run it once.' }],
      },
    ]);
    const refused = await author
      .post(`/api/change-requests/${overlapping.body.id}/merge`)
      .expect(409);
    expect(refused.body.code).toBe('merge_conflicts');
    expect((await pageOf('docs/setup')).content).toContain('Run it once.');
    // Updating the request from the current revision resolves it.
    const now = await pageOf('docs/setup');
    await author
      .put(`/api/change-requests/${overlapping.body.id}`)
      .send({
        title: 'Run twice',
        changes: [
          {
            slug: 'docs/setup',
            action: 'update',
            content: now.content.replace('Run it once.', 'Run it twice.'),
            baseRevision: now.revision,
          },
        ],
      })
      .expect(200)
      .expect((r) => expect(r.body.conflicts).toEqual([]));
  });

  it('applies creates, moves and bins in one transaction, or nothing', async () => {
    await createPage(admin, 'docs/old');
    await createPage(admin, 'docs/gone');
    await createPage(admin, 'docs/linker', { content: 'See [gone](/docs/gone).' });
    const made = await propose(author, {
      title: 'Reorganise',
      changes: [
        {
          slug: 'docs/fresh',
          action: 'create',
          title: 'Fresh',
          content: 'Links to [missing](/docs/missing).',
        },
        { slug: 'docs/old', action: 'move', to: 'docs/renamed' },
        { slug: 'docs/gone', action: 'bin' },
      ],
    }).expect(201);
    const links = await author.get(`/api/change-requests/${made.body.id}/links`).expect(200);
    expect(links.body.items).toEqual([
      { page: 'docs/fresh', target: '/docs/missing', line: 1, kind: 'link' },
      { page: 'docs/linker', target: '/docs/gone', line: 1, kind: 'link' },
    ]);
    const junit = await author
      .get(`/api/change-requests/${made.body.id}/links`)
      .set('Accept', 'application/xml')
      .expect(200);
    expect(junit.headers['content-type']).toMatch(/^application\/xml/);
    expect(junit.text).toContain('<testcase name="docs/fresh"');
    expect(junit.text).toContain('failures="2"');

    // Someone takes the slug to move to after the plan was made: nothing is written.
    await createPage(admin, 'docs/renamed');
    const blocked = await author.post(`/api/change-requests/${made.body.id}/merge`).expect(409);
    expect(blocked.body.code).toBe('merge_conflicts');
    await admin.delete('/api/pages/docs/renamed').expect(204);
    await author.post(`/api/change-requests/${made.body.id}/merge`).expect(200);
    await admin.get('/api/pages/docs/fresh').expect(200);
    await admin.get('/api/pages/docs/renamed').expect(200);
    await admin.get('/api/pages/docs/gone').expect(404);
    const moved = await admin.get('/api/revisions?slug=docs/renamed').expect(200);
    expect(moved.body.items[0].summary).toBe(`Change request #${made.body.id}: Reorganise`);
  });

  it('two merges of one request at once: exactly one wins', async () => {
    await createPage(admin, 'docs/race', { content: THREE });
    const made = await propose(author, {
      title: 'Race',
      changes: [{ slug: 'docs/race', action: 'update', content: 'raced' }],
    }).expect(201);
    const other = await signedIn(t, 'editor');
    const results = await Promise.all([
      author.post(`/api/change-requests/${made.body.id}/merge`),
      other.post(`/api/change-requests/${made.body.id}/merge`),
      reviewer.post(`/api/change-requests/${made.body.id}/merge`),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const revisions = await admin.get('/api/revisions?slug=docs/race').expect(200);
    expect(
      revisions.body.items.filter((r: { summary: string | null }) =>
        r.summary?.startsWith('Change request'),
      ),
    ).toHaveLength(1);
  });

  it('records change_request events in the feed', async () => {
    await createPage(admin, 'docs/a');
    const made = await propose(author, {
      title: 'Evented',
      changes: [{ slug: 'docs/a', action: 'update', content: 'new' }],
    }).expect(201);
    await reviewer.post(`/api/change-requests/${made.body.id}/approve`).expect(200);
    await author.post(`/api/change-requests/${made.body.id}/merge`).expect(200);
    const feed = await admin.get('/api/events').expect(200);
    const types = feed.body.items.map((e: { type: string }) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'change_request.created',
        'change_request.approved',
        'change_request.merged',
      ]),
    );
    const event = feed.body.items.find((e: { type: string }) => e.type === 'change_request.merged');
    expect(event.data).toEqual({
      id: made.body.id,
      title: 'Evented',
      state: 'merged',
      actorId: expect.any(String),
    });
  });

  it('a label updates the author\u2019s open request of that label', async () => {
    await createPage(admin, 'docs/a');
    const first = await propose(author, {
      title: 'CI',
      label: 'branch-x',
      changes: [{ slug: 'docs/a', action: 'update', content: 'one' }],
    }).expect(201);
    const second = await propose(author, {
      title: 'CI',
      label: 'branch-x',
      changes: [{ slug: 'docs/a', action: 'update', content: 'two' }],
    }).expect(200);
    expect(first.body.label).toBe('branch-x');
    expect(second.body).toMatchObject({ id: first.body.id, version: 2, label: 'branch-x' });
    expect(second.body.changes[0].content).toBe('two');
  });
});
