import { strFromU8, unzipSync } from 'fflate';
import { binary } from '../support/export-fixtures';
import { eventually } from '../support/eventually';
import { captureLogs, LogCapture } from '../support/log-capture';
import { allItems, createPage, insertPagesDirectly } from '../support/pages';
import { problem, validationProblem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);

describe('POST /api/pages/move and /api/redirects', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let reader: Client;
  // The app logs at info for the audit lines; the capture keeps them out of the test output.
  let logs: LogCapture;

  beforeAll(async () => {
    logs = captureLogs();
    t = await createTestApp({ LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await t.close();
    logs.stop();
  });
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    reader = await signedIn(t, 'reader');
  });

  const move = (client: Client, body: Record<string, unknown>) =>
    client.post('/api/pages/move').send(body);
  const liveSlugs = async () =>
    (
      (await t.dataSource.query(
        'SELECT live_slug AS slug FROM pages WHERE live_slug IS NOT NULL ORDER BY live_slug',
      )) as { slug: string }[]
    ).map((r) => r.slug);
  const redirectRows = async () =>
    (
      (await t.dataSource.query(
        'SELECT r.from_slug AS f, p.slug AS t FROM page_redirects r JOIN pages p ON p.id = r.page_id ORDER BY r.from_slug',
      )) as { f: string; t: string }[]
    ).map((r) => `${r.f}->${r.t}`);

  it('moves one page: the old slug answers 308 with Location, for the JSON and /raw', async () => {
    await createPage(editor, 'guides/setup', { content: 'Setup body' });
    const res = await move(editor, { from: 'guides/setup', to: 'handbook/Setup' }).expect(200);
    expect(res.body).toEqual({
      dryRun: false,
      moved: [{ from: 'guides/setup', to: 'handbook/setup' }],
      hiddenMoved: 0,
      rewritten: [],
    });
    const old = await reader.get('/api/pages/guides/setup').expect(308);
    expect(old.headers.location).toBe('/api/pages/handbook/setup');
    const raw = await reader.get('/api/pages/guides/setup/raw').expect(308);
    expect(raw.headers.location).toBe('/api/pages/handbook/setup/raw');
    const page = await reader.get('/api/pages/handbook/setup').expect(200);
    expect(page.body).toMatchObject({ slug: 'handbook/setup', content: 'Setup body', revision: 2 });
    const revisions = await reader.get('/api/revisions?slug=handbook/setup').expect(200);
    expect(revisions.body.items.map((r: { action: string }) => r.action)).toEqual([
      'moved',
      'created',
    ]);
    // Writes to the old slug are not redirected.
    await editor.put('/api/pages/guides/setup').send({ baseRevision: 2, title: 'x' }).expect(404);
  });

  it('moves a folder: the page and every page under it, each old slug a redirect', async () => {
    for (const slug of ['docs', 'docs/a', 'docs/a/deep', 'docs-old/x', 'other'])
      await createPage(editor, slug);
    const res = await move(editor, { from: 'docs', to: 'manual', subtree: true }).expect(200);
    expect(res.body.moved).toEqual([
      { from: 'docs', to: 'manual' },
      { from: 'docs/a', to: 'manual/a' },
      { from: 'docs/a/deep', to: 'manual/a/deep' },
    ]);
    expect(await liveSlugs()).toEqual([
      'docs-old/x',
      'manual',
      'manual/a',
      'manual/a/deep',
      'other',
    ]);
    expect(await redirectRows()).toEqual([
      'docs->manual',
      'docs/a->manual/a',
      'docs/a/deep->manual/a/deep',
    ]);
    const deep = await reader.get('/api/pages/docs/a/deep').expect(308);
    expect(deep.headers.location).toBe('/api/pages/manual/a/deep');
  });

  it('moves a folder that is no page itself', async () => {
    await createPage(editor, 'ops/runbooks/deploy');
    await createPage(editor, 'ops/faq');
    const res = await move(editor, { from: 'ops', to: 'platform', subtree: true }).expect(200);
    expect(res.body.moved).toEqual([
      { from: 'ops/faq', to: 'platform/faq' },
      { from: 'ops/runbooks/deploy', to: 'platform/runbooks/deploy' },
    ]);
    await move(editor, { from: 'ops', to: 'platform2' }).expect(404);
  });

  it('collapses chains, and a page created at an old slug replaces its redirect', async () => {
    await createPage(editor, 'a');
    await move(editor, { from: 'a', to: 'b' }).expect(200);
    await move(editor, { from: 'b', to: 'c' }).expect(200);
    expect(await redirectRows()).toEqual(['a->c', 'b->c']);
    expect((await admin.get('/api/redirects').expect(200)).body).toEqual({
      items: [
        { from: 'a', to: 'c', binned: false, createdAt: ISO, createdBy: editor.user!.username },
        { from: 'b', to: 'c', binned: false, createdAt: ISO, createdBy: editor.user!.username },
      ],
      nextCursor: null,
    });
    expect((await reader.get('/api/pages/a').expect(308)).headers.location).toBe('/api/pages/c');

    await createPage(editor, 'a', { content: 'a new page at a' });
    expect(await redirectRows()).toEqual(['b->c']);
    expect((await reader.get('/api/pages/a').expect(200)).body.content).toBe('a new page at a');

    // Moving back onto an old slug takes it over too.
    await move(editor, { from: 'c', to: 'b' }).expect(200);
    expect(await redirectRows()).toEqual(['c->b']);
  });

  it('answers 409 naming every taken slug and moves nothing', async () => {
    for (const slug of ['src', 'src/x', 'src/y', 'src/z', 'dst', 'dst/y', 'dst/z'])
      await createPage(editor, slug);
    const before = await liveSlugs();
    const res = await move(editor, { from: 'src', to: 'dst', subtree: true }).expect(409);
    expect(res.body).toEqual(problem(409, 'slug_taken', { slugs: ['dst', 'dst/y', 'dst/z'] }));
    expect(res.body.detail).toBe(
      'Live pages use these slugs: dst, dst/y, dst/z. Nothing was moved.',
    );
    expect(await liveSlugs()).toEqual(before);
    expect(await redirectRows()).toEqual([]);
    // The dry run answers the same.
    await move(editor, { from: 'src', to: 'dst', subtree: true, dryRun: true }).expect(409);
  });

  it('refuses bad input with field problems, and callers without the role', async () => {
    await createPage(editor, 'p');
    expect((await move(editor, { from: 'p', to: 'a//b' }).expect(422)).body).toEqual(
      validationProblem({ field: 'to', code: 'slug_empty_segment', message: expect.any(String) }),
    );
    expect((await move(editor, { from: 'p', to: 'P' }).expect(422)).body).toEqual(
      validationProblem({
        field: 'to',
        code: 'same_slug',
        message: 'The page already has this slug.',
      }),
    );
    expect(
      (await move(editor, { from: 'p', to: 'p/inner', subtree: true }).expect(422)).body,
    ).toEqual(
      validationProblem({
        field: 'to',
        code: 'move_into_itself',
        message: 'A folder cannot move into itself.',
      }),
    );
    await move(editor, { from: 'p', to: 'q', subtree: 'yes' }).expect(400);
    await move(editor, { from: 'missing', to: 'q' }).expect(404);
    expect((await move(reader, { from: 'p', to: 'q' }).expect(403)).body).toEqual(
      problem(403, 'insufficient_role'),
    );
    expect((await move(anonymous(t), { from: 'p', to: 'q' }).expect(401)).body).toEqual(
      problem(401, 'unauthenticated'),
    );
    expect(await liveSlugs()).toEqual(['p']);
  });

  it('a dry run answers what would happen and writes nothing', async () => {
    await createPage(editor, 'g');
    await createPage(editor, 'g/h');
    await createPage(editor, 'index', { content: 'See [g](/g/h).' });
    const res = await move(editor, {
      from: 'g',
      to: 'k',
      subtree: true,
      rewriteLinks: true,
      dryRun: true,
    }).expect(200);
    expect(res.body).toEqual({
      dryRun: true,
      moved: [
        { from: 'g', to: 'k' },
        { from: 'g/h', to: 'k/h' },
      ],
      hiddenMoved: 0,
      rewritten: [{ slug: 'index', revision: 2 }],
    });
    expect(await liveSlugs()).toEqual(['g', 'g/h', 'index']);
    expect(await redirectRows()).toEqual([]);
    expect((await reader.get('/api/pages/index').expect(200)).body.revision).toBe(1);
  });

  it('links keep resolving: backlinks, the link report; rewriteLinks writes a revision in each', async () => {
    await createPage(editor, 'team/a', { content: 'To [b](b) and [out](/index#top).' });
    await createPage(editor, 'team/b');
    await createPage(editor, 'index', {
      content: 'See [a](/team/a#intro), [b](team/b "B") and `[code](/team/a)`.',
    });
    await move(editor, { from: 'team', to: 'crew', subtree: true }).expect(200);
    // Without rewriting, the old links go through the redirects.
    expect((await admin.get('/api/reports/links').expect(200)).body.items).toEqual([]);
    const a = await reader.get('/api/pages/crew/a').expect(200);
    expect(a.body.backlinks).toEqual([{ slug: 'index', title: 'Title of index' }]);
    expect((await reader.get('/api/pages/index').expect(200)).body.revision).toBe(1);
    expect((await reader.get('/api/graph').expect(200)).body.edges).toEqual([
      { from: 'crew/a', to: 'crew/b' },
      { from: 'crew/a', to: 'index' },
      { from: 'index', to: 'crew/a' },
      { from: 'index', to: 'crew/b' },
    ]);

    const res = await move(editor, {
      from: 'crew',
      to: 'people',
      subtree: true,
      rewriteLinks: true,
    }).expect(200);
    expect(res.body.rewritten).toEqual([{ slug: 'index', revision: 2 }]);
    const index = await reader.get('/api/pages/index').expect(200);
    expect(index.body.content).toBe(
      'See [a](/people/a#intro), [b](/people/b "B") and `[code](/team/a)`.',
    );
    // The relative link inside the folder moved along and stays as written.
    expect((await reader.get('/api/pages/people/a').expect(200)).body.content).toBe(
      'To [b](b) and [out](/index#top).',
    );
    const revisions = await reader.get('/api/revisions?slug=index').expect(200);
    expect(revisions.body.items.map((r: { action: string }) => r.action)).toEqual([
      'updated',
      'created',
    ]);
    expect((await admin.get('/api/reports/links').expect(200)).body.items).toEqual([]);
  });

  it('moves pages of groups the mover cannot see along, without naming them', async () => {
    await createGroup(t, 'secret');
    await createPage(editor, 'kb');
    await createPage(admin, 'kb/hidden', { groups: ['secret'] });
    const res = await move(editor, { from: 'kb', to: 'wiki', subtree: true }).expect(200);
    expect(res.body).toMatchObject({ moved: [{ from: 'kb', to: 'wiki' }], hiddenMoved: 1 });
    expect(await liveSlugs()).toEqual(['wiki', 'wiki/hidden']);
    // The redirect of a page the caller may not see answers like a missing page.
    await editor.get('/api/pages/kb/hidden').expect(404);
    expect((await admin.get('/api/pages/kb/hidden').expect(308)).headers.location).toBe(
      '/api/pages/wiki/hidden',
    );
  });

  it('admins list and delete redirects; others get 401/403', async () => {
    await createPage(editor, 'x');
    await move(editor, { from: 'x', to: 'y' }).expect(200);
    await anonymous(t).get('/api/redirects').expect(401);
    expect((await editor.get('/api/redirects').expect(403)).body).toEqual(
      problem(403, 'insufficient_role'),
    );
    await editor.delete('/api/redirects?from=x').expect(403);
    await anonymous(t).delete('/api/redirects?from=x').expect(401);
    expect((await admin.delete('/api/redirects?from=nope').expect(404)).body).toEqual(
      problem(404, 'redirect_not_found'),
    );
    expect((await admin.delete('/api/redirects').expect(422)).body.errors).toEqual([
      expect.objectContaining({ field: 'from' }),
    ]);
    await admin.delete('/api/redirects?from=x').expect(204);
    expect(await allItems(admin, '/api/redirects')).toEqual([]);
    await reader.get('/api/pages/x').expect(404);
  });

  it('records page.moved and redirect.deleted events and audit lines', async () => {
    await createPage(editor, 'e');
    const res = await move(editor, { from: 'e', to: 'f' }).expect(200);
    const deleted = await admin.delete('/api/redirects?from=e').expect(204);
    const page = await reader.get('/api/pages/f').expect(200);
    const feed = await eventually(async () => {
      const items = (await admin.get('/api/events?limit=100').expect(200)).body.items as {
        type: string;
        data: Record<string, unknown>;
      }[];
      expect(items.map((i) => i.type)).toEqual(['page.created', 'page.moved', 'redirect.deleted']);
      return items;
    });
    const pageId = ((await t.dataSource.query('SELECT id FROM pages')) as { id: string }[])[0].id;
    expect(feed[1].data).toEqual({
      id: pageId,
      slug: 'f',
      from: 'e',
      title: 'Title of e',
      revision: page.body.revision,
      actorId: editor.user!.id,
    });
    expect(feed[2].data).toEqual({
      id: pageId,
      slug: 'f',
      from: 'e',
      title: 'Title of e',
      actorId: admin.user!.id,
    });
    const auditOf = (event: string, requestId: unknown) =>
      logs
        .lines()
        .filter((l) => l.context === 'audit' && l.requestId === requestId && l.event === event);
    expect(auditOf('page.moved', res.headers['x-request-id'])).toEqual([
      expect.objectContaining({
        actorId: editor.user!.id,
        target: `page:${pageId}`,
        from: 'e',
        to: 'f',
        subtree: false,
        moved: 1,
        rewritten: 0,
      }),
    ]);
    expect(auditOf('redirect.deleted', deleted.headers['x-request-id'])).toEqual([
      expect.objectContaining({
        actorId: admin.user!.id,
        target: `page:${pageId}`,
        from: 'e',
        to: 'f',
      }),
    ]);
  });

  it('a binned page keeps its redirects (404 meanwhile); a purge removes them', async () => {
    await createPage(editor, 'm');
    await move(editor, { from: 'm', to: 'n' }).expect(200);
    await admin.delete('/api/pages/n').expect(204);
    await reader.get('/api/pages/m').expect(404);
    expect((await admin.get('/api/redirects').expect(200)).body.items).toEqual([
      expect.objectContaining({ from: 'm', to: 'n', binned: true }),
    ]);
    const [binned] = (await admin.get('/api/bin').expect(200)).body.items as { id: string }[];
    await admin.delete(`/api/bin/${binned.id}`).expect(204);
    expect(await redirectRows()).toEqual([]);
  });

  it('the archive carries redirects and a re-import restores them', async () => {
    await createPage(editor, 'arch/one');
    await createPage(editor, 'arch/two');
    await move(editor, { from: 'arch', to: 'store', subtree: true }).expect(200);
    const archive = await admin
      .post('/api/export/archive')
      .send({})
      .buffer(true)
      .parse(binary)
      .expect(200);
    const manifest = JSON.parse(
      strFromU8(unzipSync(new Uint8Array(archive.body as Buffer))['manifest.json']),
    ) as { redirects: unknown };
    expect(manifest.redirects).toEqual([
      { from: 'arch/one', to: 'store/one' },
      { from: 'arch/two', to: 'store/two' },
    ]);

    await t.reset();
    admin = await signedIn(t, 'admin');
    await admin
      .post('/api/import')
      .field('format', 'markdown')
      .attach('files', archive.body as Buffer, {
        filename: 'kb-archive.zip',
        contentType: 'application/zip',
      })
      .expect(200);
    expect(await liveSlugs()).toEqual(['store/one', 'store/two']);
    expect(await redirectRows()).toEqual(['arch/one->store/one', 'arch/two->store/two']);
    expect((await admin.get('/api/pages/arch/two').expect(308)).headers.location).toBe(
      '/api/pages/store/two',
    );
  });

  it('moves a folder of 1,000 pages in one transaction, every old slug redirected', async () => {
    const count = 1000;
    await insertPagesDirectly(t, 'big', count);
    const started = Date.now();
    const res = await move(admin, { from: 'big', to: 'huge', subtree: true }).expect(200);
    expect(res.body.moved).toHaveLength(count);
    expect(Date.now() - started).toBeLessThan(60_000);
    const [{ n }] = (await t.dataSource.query(
      "SELECT COUNT(*) AS n FROM pages WHERE live_slug LIKE 'huge/%'",
    )) as { n: number }[];
    expect(Number(n)).toBe(count);
    const [{ r }] = (await t.dataSource.query('SELECT COUNT(*) AS r FROM page_redirects')) as {
      r: number;
    }[];
    expect(Number(r)).toBe(count);
    expect((await reader.get('/api/pages/big/p0999').expect(308)).headers.location).toBe(
      '/api/pages/huge/p0999',
    );
  });
});
