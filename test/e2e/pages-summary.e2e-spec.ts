import { binary } from '../support/export-fixtures';
import { eventually } from '../support/eventually';
import { createPage } from '../support/pages';
import { problem, validationProblem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { WebhookReceiver } from '../support/webhook-receiver';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** Issue 26: the optional change summary a write stores with its revision. */
describe('pages: change summaries (`summary`)', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let owner: Client;

  beforeAll(async () => {
    t = await createTestApp({
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '150',
      WEBHOOK_POLL_MS: '50',
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    owner = await signedIn(t, 'editor');
  });

  async function revisions(slug: string) {
    return (await editor.get(`/api/revisions?slug=${slug}`).expect(200)).body.items as {
      id: string;
      revision: number;
      summary: string | null;
    }[];
  }

  async function storedSummaries(): Promise<(string | null)[]> {
    const rows: { summary: string | null }[] = await t.dataSource.query(
      'SELECT summary FROM page_revisions ORDER BY revision',
    );
    return rows.map((r) => r.summary);
  }

  it('stores the summary of a create and an update with their revisions (trimmed; blank is none)', async () => {
    const created = await editor
      .post('/api/pages')
      .send({ slug: 'doc', title: 'Doc', content: 'v1', summary: '  First draft  ' })
      .expect(201);
    expect(created.body).not.toHaveProperty('summary');
    await editor
      .put('/api/pages/doc')
      .send({ baseRevision: 1, content: 'v2', summary: 'Fixed the install steps – ünïcode' })
      .expect(200);
    await editor.put('/api/pages/doc').send({ baseRevision: 2, content: 'v3', summary: '   ' });
    await editor.put('/api/pages/doc').send({ baseRevision: 3, content: 'v4', summary: null });
    await editor.put('/api/pages/doc').send({ baseRevision: 4, content: 'v5' }).expect(200);

    const items = await revisions('doc');
    expect(items).toEqual([
      expect.objectContaining({ revision: 5, summary: null }),
      expect.objectContaining({ revision: 4, summary: null }),
      expect.objectContaining({ revision: 3, summary: null }),
      {
        id: expect.any(String),
        revision: 2,
        title: 'Doc',
        action: 'updated',
        summary: 'Fixed the install steps – ünïcode',
        author: editor.user!.username,
        coAuthors: [],
        createdAt: ISO,
      },
      expect.objectContaining({ revision: 1, action: 'created', summary: 'First draft' }),
    ]);
    const one = await editor.get(`/api/revisions/${items[3].id}`).expect(200);
    expect(one.body).toMatchObject({ revision: 2, summary: 'Fixed the install steps – ünïcode' });
    expect(await storedSummaries()).toEqual([
      'First draft',
      'Fixed the install steps – ünïcode',
      null,
      null,
      null,
    ]);
  });

  it('an update that changes nothing writes no revision, whatever the summary', async () => {
    await createPage(editor, 'same', { content: 'x' });
    await editor
      .put('/api/pages/same')
      .send({ baseRevision: 1, content: 'x', summary: 'nothing' })
      .expect(200);
    expect(await storedSummaries()).toEqual([null]);
  });

  it('refuses a summary over 500 characters or with a line break: 422 at `summary`, nothing written', async () => {
    const long = 'é'.repeat(501);
    const create = await editor
      .post('/api/pages')
      .send({ slug: 'long', title: 'Long', content: 'x', summary: long })
      .expect(422);
    expect(create.body).toEqual(
      validationProblem({
        field: 'summary',
        code: 'summary_too_long',
        message: 'The summary may have at most 500 characters.',
      }),
    );
    // Reported together with the other fields' problems.
    const both = await editor
      .post('/api/pages')
      .send({ slug: 'two', title: '', content: 'x', summary: long })
      .expect(422);
    expect(both.body).toEqual(
      validationProblem(
        { field: 'title', code: 'title_required', message: 'A title is required.' },
        {
          field: 'summary',
          code: 'summary_too_long',
          message: 'The summary may have at most 500 characters.',
        },
      ),
    );
    await createPage(editor, 'ok', { content: 'x' });
    const update = await editor
      .put('/api/pages/ok')
      .send({ baseRevision: 1, content: 'y', summary: 'two\nlines' })
      .expect(422);
    expect(update.body).toEqual(
      validationProblem({
        field: 'summary',
        code: 'invalid_summary',
        message: 'The summary is one line without control characters.',
      }),
    );
    const wrongType = await editor
      .put('/api/pages/ok')
      .send({ baseRevision: 1, content: 'y', summary: 5 })
      .expect(400);
    expect(wrongType.body).toEqual(
      problem(400, 'invalid_type', { errors: [expect.objectContaining({ field: 'summary' })] }),
    );
    // Exactly 500 is fine.
    await editor
      .put('/api/pages/ok')
      .send({ baseRevision: 1, content: 'y', summary: 'é'.repeat(500) })
      .expect(200);
    expect((await editor.get('/api/pages/long')).status).toBe(404);
    expect((await editor.get('/api/pages/ok').expect(200)).body.revision).toBe(2);
    expect(await storedSummaries()).toEqual([null, 'é'.repeat(500)]);
  });

  it('reaches the event feed, webhooks and the owner’s notification', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      await admin
        .post('/api/webhooks')
        .send({ url: receiver.url(), events: ['page.created', 'page.updated'] })
        .expect(201);
      await createPage(owner, 'owned', { content: 'v1', summary: 'Started' });
      await editor
        .put('/api/pages/owned')
        .send({ baseRevision: 1, content: 'v2', summary: 'Links updated after a move' })
        .expect(200);

      const feed = await eventually(async () => {
        const res = await editor.get('/api/events?limit=10').expect(200);
        expect(res.body.items).toHaveLength(2);
        return res.body.items as { type: string; data: Record<string, unknown> }[];
      });
      const page = { id: expect.any(String), slug: 'owned', title: 'Title of owned' };
      expect(feed.map((e) => [e.type, e.data])).toEqual([
        ['page.created', { ...page, summary: 'Started', actorId: owner.user!.id }],
        [
          'page.updated',
          { ...page, revision: 2, summary: 'Links updated after a move', actorId: editor.user!.id },
        ],
      ]);

      await eventually(() => expect(receiver.payloads()).toHaveLength(2), 10_000);
      expect(receiver.payloads().map((p) => [p.type, p.data])).toEqual(
        feed.map((e) => [e.type, e.data]),
      );

      const inbox = await eventually(async () => {
        const res = await owner.get('/api/notifications').expect(200);
        expect(res.body.items).toHaveLength(1);
        return res.body.items[0];
      });
      expect(inbox).toMatchObject({
        kind: 'page.updated',
        data: { revision: 2, updates: 1, summary: 'Links updated after a move' },
      });
      // A second unread edit folds into the same notice, with the newest summary.
      await editor
        .put('/api/pages/owned')
        .send({ baseRevision: 2, content: 'v3', summary: 'Typos' })
        .expect(200);
      await eventually(async () => {
        const res = await owner.get('/api/notifications').expect(200);
        expect(res.body.items).toEqual([
          expect.objectContaining({ data: { revision: 3, updates: 2, summary: 'Typos' } }),
        ]);
      });
    } finally {
      await receiver.close();
    }
  });

  it('travels through an archive export and import', async () => {
    await createPage(editor, 'kept', { content: 'v1', summary: 'Made it' });
    await editor
      .put('/api/pages/kept')
      .send({ baseRevision: 1, content: 'v2', summary: 'Second thoughts' })
      .expect(200);
    await createPage(editor, 'plain', { content: 'p' });
    const res = await admin
      .post('/api/export/archive')
      .send({})
      .buffer(true)
      .parse(binary)
      .expect(200);
    const archive = res.body as Buffer;
    const { unzipSync } = await import('fflate');
    const manifest = JSON.parse(
      Buffer.from(unzipSync(new Uint8Array(archive))['manifest.json']).toString('utf8'),
    );
    expect(
      manifest.pages.map((p: Record<string, unknown>) => [p.slug, p.revision, p.summary]),
    ).toEqual([
      ['kept', 2, 'Second thoughts'],
      ['plain', 1, null],
    ]);

    await t.reset();
    const target = await signedIn(t, 'admin');
    await target
      .post('/api/import')
      .field('format', 'markdown')
      .attach('files', archive, { filename: 'kb-archive.zip', contentType: 'application/zip' })
      .expect(200);
    const kept = (await target.get('/api/revisions?slug=kept').expect(200)).body.items;
    expect(kept).toEqual([
      expect.objectContaining({ revision: 1, action: 'imported', summary: 'Second thoughts' }),
    ]);
    const plain = (await target.get('/api/revisions?slug=plain').expect(200)).body.items;
    expect(plain).toEqual([expect.objectContaining({ action: 'imported', summary: null })]);
  });
});
