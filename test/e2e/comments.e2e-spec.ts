import { eventually } from '../support/eventually';
import { binary } from '../support/media-support';
import { createPage, updatePage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';
import { WebhookReceiver } from '../support/webhook-receiver';

type Comment = Record<string, any>;

const SLUG = 'guides/tea/brewing';
const CONTENT = [
  '# Brewing tea',
  '',
  'Always warm the pot before the leaves go in.',
  '',
  'Steep green tea for two minutes, black tea for four.',
  '',
].join('\n');

/** Comments on pages (docs/comments.md): routes, rules, mentions, anchors, events. */
describe('comments', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let reader: Client;
  let other: Client;
  let outsider: Client;

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
    await createGroup(t, 'tea');
    await createGroup(t, 'coffee');
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor', { groups: ['tea'] });
    reader = await signedIn(t, 'reader', { groups: ['tea'] });
    other = await signedIn(t, 'reader', { groups: ['tea'] });
    outsider = await signedIn(t, 'reader', { groups: ['coffee'] });
    await createPage(admin, SLUG, { title: 'Brewing tea', content: CONTENT, groups: ['tea'] });
  });

  const list = async (client: Client, state = 'open', slug = SLUG) =>
    (await client.get(`/api/comments?slug=${slug}&state=${state}`).expect(200)).body as {
      items: Comment[];
      nextCursor: string | null;
      threads: { open: number; resolved: number };
    };
  const comment = async (client: Client, body: Record<string, unknown>): Promise<Comment> => {
    const res = await client.post('/api/comments').send({ slug: SLUG, ...body });
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    expect(res.headers.location).toBe(`/api/comments/${res.body.id}`);
    return res.body as Comment;
  };
  const rowCount = async () =>
    Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM comments'))[0].n);
  const inbox = async (client: Client) =>
    (await client.get('/api/notifications').expect(200)).body.items as Comment[];

  it('refuses anonymous callers on every route', async () => {
    const anon = anonymous(t);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const res of [
      await anon.get(`/api/comments?slug=${SLUG}`),
      await anon.get(`/api/comments/mentionable?slug=${SLUG}`),
      await anon.post('/api/comments').send({ slug: SLUG, body: 'x' }),
      await anon.patch(`/api/comments/${id}`).send({ body: 'x' }),
      await anon.delete(`/api/comments/${id}`),
      await anon.post(`/api/comments/${id}/resolve`),
      await anon.post(`/api/comments/${id}/reopen`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(problem(401, 'unauthenticated'));
    }
  });

  it('starts threads and replies, renders Markdown safely, and lists them in order', async () => {
    const thread = await comment(reader, {
      body: 'Is **two minutes** right? <script>alert(1)</script><img src=x onerror=alert(2)>',
    });
    expect(thread).toEqual({
      id: expect.any(String),
      threadId: thread.id,
      parentId: null,
      body: 'Is **two minutes** right? <script>alert(1)</script><img src=x onerror=alert(2)>',
      html: expect.stringContaining('<strong>two minutes</strong>'),
      author: {
        id: reader.user!.id,
        username: reader.user!.username,
        displayName: expect.any(String),
      },
      createdAt: expect.stringMatching(/Z$/),
      editedAt: null,
      resolved: false,
      resolvedAt: null,
      outdated: false,
      anchor: null,
    });
    expect(thread.html).not.toMatch(/script|onerror/);
    const reply = await comment(editor, { body: 'Yes.', parentId: thread.id });
    expect(reply).toMatchObject({ threadId: thread.id, parentId: thread.id });
    const second = await comment(other, { body: 'A second thread.' });

    const all = await list(reader);
    expect(all.items.map((c) => c.id)).toEqual([thread.id, reply.id, second.id]);
    expect(all.threads).toEqual({ open: 2, resolved: 0 });
    // Cursor paging over the same order.
    const first = await reader.get(`/api/comments?slug=${SLUG}&limit=2`).expect(200);
    expect(first.body.items.map((c: Comment) => c.id)).toEqual([thread.id, reply.id]);
    const rest = await reader
      .get(`/api/comments?slug=${SLUG}&limit=2&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(rest.body.items.map((c: Comment) => c.id)).toEqual([second.id]);
    expect(rest.body.nextCursor).toBeNull();

    // A reply to a reply stays in the thread.
    const nested = await comment(reader, { body: 'Thanks', parentId: reply.id });
    expect(nested).toMatchObject({ threadId: thread.id, parentId: reply.id });
  });

  it('answers bad input with clear problems and writes nothing', async () => {
    expect((await reader.get('/api/comments').expect(400)).body).toEqual(
      problem(400, 'slug_required'),
    );
    expect((await reader.get(`/api/comments?slug=${SLUG}&state=closed`).expect(422)).body).toEqual(
      problem(422, 'validation_failed', {
        errors: [expect.objectContaining({ field: 'state' })],
      }),
    );
    const tooLong = await reader
      .post('/api/comments')
      .send({ slug: SLUG, body: 'x'.repeat(10_001) })
      .expect(422);
    expect(tooLong.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [{ field: 'body', code: 'too_long', message: expect.any(String) }],
      }),
    );
    await reader
      .post('/api/comments')
      .send({ slug: SLUG, body: 'x'.repeat(10_000) })
      .expect(201);
    const empty = await reader.post('/api/comments').send({ slug: SLUG, body: '  ' }).expect(422);
    expect(empty.body.errors).toEqual([
      expect.objectContaining({ field: 'body', code: 'required' }),
    ]);
    const wrongParent = await reader
      .post('/api/comments')
      .send({ slug: SLUG, body: 'x', parentId: '00000000-0000-4000-8000-000000000000' })
      .expect(422);
    expect(wrongParent.body.errors).toEqual([expect.objectContaining({ field: 'parentId' })]);
    expect(await rowCount()).toBe(1);
  });

  it('follows page visibility: invisible, missing and binned pages are 404 alike', async () => {
    const thread = await comment(reader, { body: 'Hello' });
    for (const client of [outsider]) {
      const listed = await client.get(`/api/comments?slug=${SLUG}`).expect(404);
      expect(listed.body).toEqual(problem(404, 'page_not_found'));
      const created = await client
        .post('/api/comments')
        .send({ slug: SLUG, body: 'x' })
        .expect(404);
      expect(created.body).toEqual(problem(404, 'page_not_found'));
      for (const res of [
        await client.patch(`/api/comments/${thread.id}`).send({ body: 'x' }),
        await client.delete(`/api/comments/${thread.id}`),
        await client.post(`/api/comments/${thread.id}/resolve`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual(problem(404, 'comment_not_found'));
      }
    }
    const missing = await reader.get('/api/comments?slug=no/such/page').expect(404);
    expect(missing.body).toEqual(problem(404, 'page_not_found'));

    await admin.delete(`/api/pages/${SLUG}`).expect(204);
    await reader.get(`/api/comments?slug=${SLUG}`).expect(404);
    const binned = await reader.post('/api/comments').send({ slug: SLUG, body: 'x' }).expect(404);
    expect(binned.body).toEqual(problem(404, 'page_not_found'));
    await reader.post(`/api/comments/${thread.id}/resolve`).expect(404);
    expect(await rowCount()).toBe(1);
  });

  it('lets authors edit and delete their own; admins delete any; threads with replies need an admin', async () => {
    const thread = await comment(reader, { body: 'First' });
    const reply = await comment(other, { body: 'Reply', parentId: thread.id });

    const edited = await reader
      .patch(`/api/comments/${thread.id}`)
      .send({ body: 'First, *edited*' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      body: 'First, *edited*',
      html: expect.stringContaining('<em>edited</em>'),
      editedAt: expect.stringMatching(/Z$/),
    });
    const notMine = await other.patch(`/api/comments/${thread.id}`).send({ body: 'x' }).expect(403);
    expect(notMine.body).toEqual(problem(403, 'not_comment_author'));
    expect((await editor.delete(`/api/comments/${reply.id}`).expect(403)).body).toEqual(
      problem(403, 'not_comment_author'),
    );
    const blocked = await reader.delete(`/api/comments/${thread.id}`).expect(409);
    expect(blocked.body).toEqual(problem(409, 'comment_has_replies'));

    await other.delete(`/api/comments/${reply.id}`).expect(204);
    await reader.delete(`/api/comments/${thread.id}`).expect(204);
    expect(await rowCount()).toBe(0);

    const again = await comment(reader, { body: 'Again' });
    await comment(other, { body: 'Reply', parentId: again.id });
    await admin.delete(`/api/comments/${again.id}`).expect(204);
    expect(await rowCount()).toBe(0);
    await admin.delete(`/api/comments/${again.id}`).expect(404);
  });

  it('resolves and reopens threads: their author, editors and admins', async () => {
    const thread = await comment(reader, { body: 'Fix this' });
    const reply = await comment(other, { body: 'Agreed', parentId: thread.id });
    expect((await other.post(`/api/comments/${thread.id}/resolve`).expect(403)).body).toEqual(
      problem(403, 'not_allowed_to_resolve'),
    );
    const resolved = await reader.post(`/api/comments/${thread.id}/resolve`).expect(200);
    expect(resolved.body).toMatchObject({
      resolved: true,
      resolvedAt: expect.stringMatching(/Z$/),
    });
    await reader.post(`/api/comments/${thread.id}/resolve`).expect(200);
    expect((await list(reader)).items).toEqual([]);
    const done = await list(reader, 'resolved');
    expect(done.items.map((c) => [c.id, c.resolved])).toEqual([
      [thread.id, true],
      [reply.id, true],
    ]);
    expect(done.threads).toEqual({ open: 0, resolved: 1 });
    // Reopening through a reply reopens its thread.
    const reopened = await editor.post(`/api/comments/${reply.id}/reopen`).expect(200);
    expect(reopened.body).toMatchObject({ id: reply.id, resolved: false });
    expect((await list(reader, 'all')).items).toHaveLength(2);
    await admin.post(`/api/comments/${thread.id}/resolve`).expect(200);

    const kinds = await t.dataSource.query(
      "SELECT type FROM events WHERE type LIKE 'comment.%' ORDER BY seq",
    );
    expect(kinds.map((r: { type: string }) => r.type)).toEqual([
      'comment.created',
      'comment.created',
      'comment.resolved',
      'comment.reopened',
      'comment.resolved',
    ]);
  });

  it('tells mentioned people and thread participants, and refuses mentions that cannot be notified', async () => {
    const thread = await comment(reader, {
      body: `Could @${editor.user!.username} check this? cc @${other.user!.username}`,
    });
    await eventually(async () => {
      const items = await inbox(editor);
      expect(items).toEqual([
        expect.objectContaining({
          kind: 'comment.mentioned',
          page: { id: expect.any(String), slug: SLUG, title: 'Brewing tea' },
          actor: expect.objectContaining({ username: reader.user!.username }),
          data: { commentId: thread.id, threadId: thread.id },
        }),
      ]);
    });
    expect((await inbox(other)).map((n) => n.kind)).toEqual(['comment.mentioned']);

    // A reply tells the thread's author and the people who took part, not the one replying.
    await comment(editor, { body: 'Done.', parentId: thread.id });
    await eventually(async () =>
      expect((await inbox(reader)).map((n) => n.kind)).toEqual(['comment.replied']),
    );
    expect((await inbox(editor)).map((n) => n.kind)).toEqual(['comment.mentioned']);

    // Someone outside the page's groups and a name no one has: refused alike, nothing written.
    const before = await rowCount();
    const refused = await reader
      .post('/api/comments')
      .send({ slug: SLUG, body: `@${outsider.user!.username} and @nobody-here, look` })
      .expect(422);
    expect(refused.body).toEqual(
      problem(422, 'mention_not_allowed', { mentions: [outsider.user!.username, 'nobody-here'] }),
    );
    expect(refused.text).not.toContain('coffee');
    expect(await rowCount()).toBe(before);
    expect(await inbox(outsider)).toEqual([]);

    // An edit that adds a mention tells only the person newly mentioned.
    const mine = await comment(other, { body: 'Plain' });
    await other
      .patch(`/api/comments/${mine.id}`)
      .send({ body: `Plain, @${admin.user!.username}` })
      .expect(200);
    await eventually(async () =>
      expect((await inbox(admin)).map((n) => n.kind)).toEqual(['comment.mentioned']),
    );
    await other
      .patch(`/api/comments/${mine.id}`)
      .send({ body: `@${outsider.user!.username}` })
      .expect(422);

    // Autocomplete offers only people who can read the page, with usernames and display names.
    const found = await reader
      .get(`/api/comments/mentionable?slug=${SLUG}&q=${outsider.user!.username.slice(0, 6)}`)
      .expect(200);
    const names = found.body.items.map((u: { username: string }) => u.username);
    expect(names).not.toContain(outsider.user!.username);
    expect(names).toContain(reader.user!.username);
    expect(Object.keys(found.body.items[0]).sort()).toEqual(['displayName', 'username']);
    await outsider.get(`/api/comments/mentionable?slug=${SLUG}`).expect(404);
  });

  it('anchors inline threads, follows a passage that moved, and marks one that is gone outdated', async () => {
    const page = (await reader.get(`/api/pages/${SLUG}`).expect(200)).body;
    expect(page.html).toContain('Steep green tea');
    const quote = 'Steep green tea for two minutes';
    const inline = await comment(reader, {
      body: 'Is this right?',
      anchor: { quote, prefix: 'before the leaves go in. ', suffix: ', black tea for four.' },
    });
    const start = 'Brewing tea Always warm the pot before the leaves go in. '.length;
    expect(inline.anchor).toEqual({
      quote,
      prefix: 'before the leaves go in. ',
      suffix: ', black tea for four.',
      start,
      end: start + quote.length,
    });

    // Bad anchors: past the end, not in the page.
    const past = await reader
      .post('/api/comments')
      .send({ slug: SLUG, body: 'x', anchor: { quote: 'tea', start: 10_000 } })
      .expect(422);
    expect(past.body).toEqual(
      problem(422, 'anchor_out_of_range', {
        errors: [expect.objectContaining({ field: 'anchor.start' })],
      }),
    );
    const absent = await reader
      .post('/api/comments')
      .send({ slug: SLUG, body: 'x', anchor: { quote: 'Oolong needs hotter water' } })
      .expect(422);
    expect(absent.body).toEqual(
      problem(422, 'anchor_not_found', {
        errors: [expect.objectContaining({ field: 'anchor.quote' })],
      }),
    );

    // An API edit moves the passage down: the thread follows it.
    const intro = 'Good water matters more than anything else in this guide.';
    await updatePage(admin, SLUG, {
      content: CONTENT.replace('# Brewing tea\n', `# Brewing tea\n\n${intro}\n`),
    });
    const moved = await eventually(async () => {
      const [item] = (await list(reader)).items;
      expect(item.anchor.start).toBe(start + intro.length + 1);
      return item;
    });
    expect(moved).toMatchObject({ outdated: false, anchor: { quote } });

    // The passage edited a little: still found.
    await updatePage(admin, SLUG, {
      content: `# Brewing tea\n\n${intro}\n\nSteep green tea for about two minutes, black tea for four.\n`,
    });
    await eventually(async () => {
      const [item] = (await list(reader)).items;
      expect(item.outdated).toBe(false);
      const text = 'Brewing tea ' + intro + ' Steep green tea for about two minutes';
      expect(item.anchor.end).toBe(text.length);
    });

    // Deleted: outdated, with the original quote kept.
    await updatePage(admin, SLUG, {
      content: '# Brewing tea\n\nNothing about steeping here any more.\n',
    });
    const gone = await eventually(async () => {
      const [item] = (await list(reader)).items;
      expect(item.outdated).toBe(true);
      return item;
    });
    expect(gone.anchor.quote).toBe(quote);
    expect(gone.id).toBe(inline.id);

    // Back again (a restore of the old text): anchored again.
    await updatePage(admin, SLUG, { content: CONTENT });
    await eventually(async () => expect((await list(reader)).items[0].outdated).toBe(false));
  });

  it('records comment events in the feed (visibility-filtered) and sends them to webhooks', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      await admin
        .post('/api/webhooks')
        .send({ url: receiver.url(), events: ['comment.created', 'comment.deleted'] })
        .expect(201);
      const thread = await comment(reader, { body: 'Hook me' });
      await reader.delete(`/api/comments/${thread.id}`).expect(204);
      await eventually(() => expect(receiver.received).toHaveLength(2), 10_000);
      const payloads = receiver.payloads();
      expect(payloads.map((p) => p.type)).toEqual(['comment.created', 'comment.deleted']);
      expect(payloads[0].data).toEqual({
        id: thread.id,
        threadId: thread.id,
        parentId: null,
        pageId: expect.any(String),
        slug: SLUG,
        title: 'Brewing tea',
        body: 'Hook me',
        actorId: reader.user!.id,
      });
      expect(JSON.stringify(payloads)).not.toMatch(/mentionedIds|participantIds/);
    } finally {
      await receiver.close();
    }
    const feed = async (client: Client) =>
      ((await client.get('/api/events?limit=100').expect(200)).body.items as Comment[])
        .map((e) => e.type)
        .filter((type: string) => type.startsWith('comment.'));
    expect(await feed(other)).toEqual(['comment.created', 'comment.deleted']);
    expect(await feed(outsider)).toEqual([]);
  });

  it("travels in the archive: exported with the pages, restored by an administrator's import", async () => {
    const thread = await comment(reader, {
      body: 'Inline **note**',
      anchor: { quote: 'warm the pot' },
    });
    await comment(editor, { body: 'A reply', parentId: thread.id });
    const closed = await comment(other, { body: 'Settled' });
    await other.post(`/api/comments/${closed.id}/resolve`).expect(200);

    const exported = async (client: Client) =>
      (
        await client
          .post('/api/export/archive')
          .send({ slugs: [SLUG] })
          .buffer(true)
          .parse(binary)
          .expect(200)
      ).body as Buffer;
    const archive = await exported(admin);
    const { unzipSync } = await import('fflate');
    const manifest = JSON.parse(
      Buffer.from(unzipSync(new Uint8Array(archive))['manifest.json']).toString('utf8'),
    );
    expect(manifest.pages[0].comments).toEqual([
      expect.objectContaining({
        id: thread.id,
        author: reader.user!.username,
        body: 'Inline **note**',
      }),
      expect.objectContaining({ threadId: thread.id, parentId: thread.id, body: 'A reply' }),
      expect.objectContaining({ id: closed.id, resolvedAt: expect.any(String) }),
    ]);
    expect(manifest.pages[0].comments[0].anchor).toMatchObject({ quote: 'warm the pot' });

    const importAs = (client: Client, prefix: string) =>
      client
        .post('/api/import')
        .field('format', 'markdown')
        .field('prefix', prefix)
        .attach('files', archive, { filename: 'kb-archive.zip', contentType: 'application/zip' })
        .expect((res) => expect([res.status, res.body.code]).toEqual([200, undefined]));
    await importAs(admin, 'copy');
    const copied = await list(reader, 'all', `copy/${SLUG}`);
    expect(
      copied.items.map((c) => [c.body, c.author?.username, c.resolved, c.parentId === null]),
    ).toEqual([
      ['Inline **note**', reader.user!.username, false, true],
      ['A reply', editor.user!.username, false, false],
      ['Settled', other.user!.username, true, true],
    ]);
    expect(copied.items[0]).toMatchObject({
      html: expect.stringContaining('<strong>note</strong>'),
      outdated: false,
      anchor: { quote: 'warm the pot' },
    });
    expect(copied.items[1].threadId).toBe(copied.items[0].id);
    expect(copied.items.map((c) => c.id)).not.toContain(thread.id);

    // Imported again onto itself: the page's comments are the archive's, not twice.
    await importAs(admin, 'copy');
    expect((await list(reader, 'all', `copy/${SLUG}`)).items).toHaveLength(3);

    // Only administrators export archives.
    await editor
      .post('/api/export/archive')
      .send({ slugs: [SLUG] })
      .expect(403);
  });

  it('limits comments to editors with COMMENTS=editors', async () => {
    await t.restart({ COMMENTS: 'editors' });
    try {
      const refused = await reader
        .post('/api/comments')
        .send({ slug: SLUG, body: 'x' })
        .expect(403);
      expect(refused.body).toEqual(problem(403, 'comments_editors_only'));
      await editor.post('/api/comments').send({ slug: SLUG, body: 'x' }).expect(201);
      await reader.get(`/api/comments?slug=${SLUG}`).expect(200);
    } finally {
      await t.restart();
    }
  });
});
