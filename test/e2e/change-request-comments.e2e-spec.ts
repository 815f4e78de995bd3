import { createPage } from '../support/pages';
import { fieldErrors, problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

const BASE = ['# Setup', '', 'Install it.', '', 'Run it.', '', 'Done.'].join('\n');
const PROPOSED = BASE.replace('Install it.', 'Install it with npm.');

/** Issue 31: comments on the lines of a change request's diff. */
describe('change requests: comments on lines of the diff', () => {
  let t: TestApp;
  let admin: Client;
  let author: Client;
  let reviewer: Client;
  let reader: Client;
  let id: number;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'staff');
    admin = await signedIn(t, 'admin');
    author = await signedIn(t, 'reader');
    reviewer = await signedIn(t, 'editor');
    reader = await signedIn(t, 'reader');
    await createPage(admin, 'docs/setup', { content: BASE });
    const made = await author
      .post('/api/change-requests')
      .send({
        title: 'Clarify setup',
        changes: [
          { slug: 'docs/setup', action: 'update', content: PROPOSED },
          { slug: 'docs/new', action: 'create', content: 'One.\nTwo.' },
        ],
      })
      .expect(201);
    id = made.body.id;
  });

  const url = () => `/api/change-requests/${id}/comments`;
  const rows = async () =>
    (
      await t.dataSource.query(
        'SELECT slug, side, line, line_text, version, body FROM change_request_comments ORDER BY created_at, id',
      )
    ).map((r: Record<string, unknown>) => ({
      ...r,
      line: Number(r.line),
      version: Number(r.version),
    }));

  it('needs a caller who may see the request', async () => {
    await anonymous(t).get(url()).expect(401);
    await anonymous(t).post(url()).send({ body: 'x', slug: 'docs/setup', line: 1 }).expect(401);
    await createPage(admin, 'secret/plan', { groups: ['staff'], content: 'Hidden.' });
    const staff = await signedIn(t, 'editor', { groups: ['staff'] });
    const hidden = await staff
      .post('/api/change-requests')
      .send({
        title: 'Secret',
        changes: [{ slug: 'secret/plan', action: 'update', content: 'New.' }],
      })
      .expect(201);
    const outsider = await reader
      .post(`/api/change-requests/${hidden.body.id}/comments`)
      .send({ body: 'Peek', slug: 'secret/plan', line: 1 })
      .expect(404);
    expect(outsider.body).toEqual(problem(404, 'change_request_not_found'));
    await reader.get(`/api/change-requests/${hidden.body.id}/comments`).expect(404);
    await reader.get('/api/change-requests/999/comments').expect(404);
    expect(await rows()).toEqual([]);
  });

  it('comments on a line of either side, replies, and tells the author and the thread', async () => {
    const made = await reviewer
      .post(url())
      .send({ body: 'Which **npm** version?', slug: 'docs/setup', line: 3 })
      .expect(201);
    expect(made.headers.location).toBe(url());
    expect(made.body).toMatchObject({
      id: expect.any(String),
      threadId: made.body.id,
      parentId: null,
      slug: 'docs/setup',
      side: 'proposed',
      line: 3,
      lineText: 'Install it with npm.',
      version: 1,
      outdated: false,
      body: 'Which **npm** version?',
      author: expect.objectContaining({ username: reviewer.user!.username }),
    });
    expect(made.body.html).toContain('<strong>npm</strong>');
    const removed = await reviewer
      .post(url())
      .send({ body: 'Keep the short form?', slug: 'docs/setup', line: 3, side: 'base' })
      .expect(201);
    expect(removed.body).toMatchObject({ side: 'base', lineText: 'Install it.' });
    // The author answers in the thread; the reviewer hears of it.
    const reply = await author
      .post(url())
      .send({ body: 'Any recent one.', parentId: made.body.id })
      .expect(201);
    expect(reply.body).toMatchObject({
      threadId: made.body.id,
      parentId: made.body.id,
      slug: 'docs/setup',
      line: 3,
    });
    const list = await reader.get(url()).expect(200);
    expect(list.body.items.map((c: { body: string }) => c.body)).toEqual([
      'Which **npm** version?',
      'Keep the short form?',
      'Any recent one.',
    ]);
    const paged = await reader.get(`${url()}?limit=2`).expect(200);
    expect(paged.body.items).toHaveLength(2);
    const rest = await reader.get(`${url()}?limit=2&cursor=${paged.body.nextCursor}`).expect(200);
    expect(rest.body).toEqual({
      items: [expect.objectContaining({ id: reply.body.id })],
      nextCursor: null,
    });
    expect(await rows()).toEqual([
      {
        slug: 'docs/setup',
        side: 'proposed',
        line: 3,
        line_text: 'Install it with npm.',
        version: 1,
        body: 'Which **npm** version?',
      },
      {
        slug: 'docs/setup',
        side: 'base',
        line: 3,
        line_text: 'Install it.',
        version: 1,
        body: 'Keep the short form?',
      },
      {
        slug: 'docs/setup',
        side: 'proposed',
        line: 3,
        line_text: 'Install it with npm.',
        version: 1,
        body: 'Any recent one.',
      },
    ]);
    const told = (c: Client) =>
      c
        .get('/api/notifications')
        .expect(200)
        .then((r) =>
          r.body.items.filter(
            (n: { kind: string; data: { action?: string } }) =>
              n.kind === 'change_request' && n.data.action === 'commented',
          ),
        );
    expect(await told(author)).toHaveLength(2);
    expect(await told(reviewer)).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ requestId: id, action: 'commented' }),
      }),
    ]);
    expect(await told(reader)).toEqual([]);
    const feed = await admin.get('/api/events?limit=100').expect(200);
    expect(
      feed.body.items.filter((e: { type: string }) => e.type === 'change_request.commented'),
    ).toHaveLength(3);
  });

  it('refuses bad input and writes nothing', async () => {
    const refused = async (body: Record<string, unknown>, field: string, code: string) =>
      expect((await reviewer.post(url()).send(body).expect(422)).body).toEqual(
        fieldErrors({ field, code }),
      );
    await refused({ body: '  ', slug: 'docs/setup', line: 1 }, 'body', 'required');
    await refused({ body: 'x'.repeat(10_001), slug: 'docs/setup', line: 1 }, 'body', 'too_long');
    await refused({ body: 'x', slug: 'docs/other', line: 1 }, 'slug', 'not_in_request');
    await refused({ body: 'x', line: 1 }, 'slug', 'required');
    await refused({ body: 'x', slug: 'docs/setup' }, 'line', 'required');
    await refused({ body: 'x', slug: 'docs/setup', line: 8 }, 'line', 'line_out_of_range');
    // A new page has no base text to comment on.
    await refused(
      { body: 'x', slug: 'docs/new', line: 1, side: 'base' },
      'line',
      'line_out_of_range',
    );
    await refused(
      { body: 'x', parentId: '00000000-0000-4000-8000-000000000000' },
      'parentId',
      'not_found',
    );
    await reviewer.post(url()).send({ body: 'x', slug: 'docs/setup', line: 0 }).expect(422);
    await reviewer
      .post(url())
      .send({ body: 'x', slug: 'docs/setup', line: 1, side: 'left' })
      .expect(422);
    await reviewer
      .post('/api/change-requests/abc/comments')
      .send({ body: 'x', slug: 'docs/setup', line: 1 })
      .expect(404);
    expect(await rows()).toEqual([]);
  });

  it('follows its line through an update, and is outdated when the line is gone', async () => {
    const onRun = await reviewer
      .post(url())
      .send({ body: 'Run how?', slug: 'docs/setup', line: 5 })
      .expect(201);
    const onInstall = await reviewer
      .post(url())
      .send({ body: 'Which version?', slug: 'docs/setup', line: 3 })
      .expect(201);
    await author
      .put(`/api/change-requests/${id}`)
      .send({
        title: 'Clarify setup',
        changes: [
          {
            slug: 'docs/setup',
            action: 'update',
            content: [
              '# Setup',
              '',
              'Before you start.',
              '',
              'Install it with npm 10.',
              '',
              'Run it.',
              '',
              'Done.',
            ].join('\n'),
          },
        ],
      })
      .expect(200);
    const byId = Object.fromEntries(
      (await reviewer.get(url()).expect(200)).body.items.map((c: { id: string }) => [c.id, c]),
    );
    expect(byId[onRun.body.id]).toMatchObject({ line: 7, outdated: false, lineText: 'Run it.' });
    expect(byId[onInstall.body.id]).toMatchObject({
      line: 3,
      outdated: true,
      lineText: 'Install it with npm.',
    });
  });

  it('edits by its author only; deletes by its author or an administrator', async () => {
    const made = await reviewer
      .post(url())
      .send({ body: 'Typo', slug: 'docs/setup', line: 1 })
      .expect(201);
    const reply = await author
      .post(url())
      .send({ body: 'Where?', parentId: made.body.id })
      .expect(201);
    const edit = (c: Client, commentId: string, body: string) =>
      c.patch(`${url()}/${commentId}`).send({ body });
    expect((await edit(author, made.body.id, 'Mine now').expect(403)).body).toEqual(
      problem(403, 'not_comment_author'),
    );
    const edited = await edit(reviewer, made.body.id, 'Typo in the title').expect(200);
    expect(edited.body).toMatchObject({ body: 'Typo in the title', editedAt: expect.any(String) });
    await edit(reviewer, 'not-a-uuid', 'x').expect(404);
    // Others replied: only an administrator removes the thread.
    expect((await reviewer.delete(`${url()}/${made.body.id}`).expect(409)).body).toEqual(
      problem(409, 'comment_has_replies'),
    );
    await reader.delete(`${url()}/${reply.body.id}`).expect(403);
    await author.delete(`${url()}/${reply.body.id}`).expect(204);
    await admin.delete(`${url()}/${made.body.id}`).expect(204);
    expect(await rows()).toEqual([]);
    await admin.delete(`${url()}/${made.body.id}`).expect(404);
  });
});
