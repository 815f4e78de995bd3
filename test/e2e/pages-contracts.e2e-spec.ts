import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';
import { createPage, updatePage } from '../support/pages';
import { PageBrowseService } from '../../src/pages/page-browse.service';
import { PageWriterService } from '../../src/pages/page-writer.service';
import { PagesService } from '../../src/pages/pages.service';
import { Database } from '../../src/common/database/database';
import { PageRevisionsTable } from '../../src/pages/store/page-revision.entity';
import { PagesTable } from '../../src/pages/store/page.entity';
import type { AuthUser } from '../../src/common/auth/auth-user';

/** The services other features call (docs/CONTRACTS.md). */
describe('pages: exported services', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let actor: AuthUser;
  let pages: PagesService;
  let writer: PageWriterService;
  let browse: PageBrowseService;

  beforeAll(async () => {
    t = await createTestApp();
    pages = t.get(PagesService);
    writer = t.get(PageWriterService);
    browse = t.get(PageBrowseService);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    actor = {
      id: admin.user!.id,
      username: admin.user!.username,
      displayName: 'a',
      role: 'admin',
      groups: [],
      via: 'session',
    };
  });

  const revisionsOf = async (slug: string) => {
    const page = await t.dataSource.getRepository(PagesTable).findOneByOrFail({ liveSlug: slug });
    return t.dataSource
      .getRepository(PageRevisionsTable)
      .find({ where: { pageId: page.id }, order: { revision: 'ASC' } });
  };

  it('upsertImported creates verified pages, keeps metadata when replacing, and reports unchanged', async () => {
    await createGroup(t, 'ops');
    const created = await t.get(Database).transaction((tx) =>
      writer.upsertImported(
        tx,
        {
          slug: 'Imported/Page',
          title: 'Imported',
          content: 'one [x](/other)',
          tags: ['imp'],
          groups: ['ops'],
        },
        actor,
      ),
    );
    expect(created).toBe('created');
    const first = await admin.get('/api/pages/imported/page').expect(200);
    expect(first.body).toEqual(
      expect.objectContaining({ verified: true, tags: ['imp'], groups: ['ops'], revision: 1 }),
    );

    // An editor sets metadata; a later import of the same path keeps it.
    await updatePage(admin, 'imported/page', {
      icon: '📦',
      language: 'de',
      lifecycle: 'in_review',
      tags: ['kept'],
      properties: { a: 1 },
    });
    const replaced = await t
      .get(Database)
      .transaction((tx) =>
        writer.upsertImported(
          tx,
          { slug: 'imported/page', title: 'Imported v2', content: 'two' },
          actor,
        ),
      );
    expect(replaced).toBe('replaced');
    const second = await admin.get('/api/pages/imported/page').expect(200);
    expect(second.body).toEqual(
      expect.objectContaining({
        title: 'Imported v2',
        content: 'two',
        icon: '📦',
        language: 'de',
        lifecycle: 'in_review',
        tags: ['kept'],
        groups: ['ops'],
        properties: { a: 1 },
        revision: 3,
      }),
    );
    const unchanged = await t
      .get(Database)
      .transaction((tx) =>
        writer.upsertImported(
          tx,
          { slug: 'imported/page', title: 'Imported v2', content: 'two' },
          actor,
        ),
      );
    expect(unchanged).toBe('unchanged');
    expect((await revisionsOf('imported/page')).map((r) => [r.revision, r.action])).toEqual([
      [1, 'imported'],
      [2, 'updated'],
      [3, 'imported'],
    ]);
  });

  it('upsertImported runs inside the caller transaction: a rollback leaves nothing', async () => {
    await expect(
      t.get(Database).transaction(async (tx) => {
        await writer.upsertImported(tx, { slug: 'a', title: 'A', content: 'a' }, actor);
        await writer.upsertImported(tx, { slug: 'b', title: 'B', content: 'b' }, actor);
        throw new Error('abort the import');
      }),
    ).rejects.toThrow('abort the import');
    expect(await t.dataSource.getRepository(PagesTable).count()).toBe(0);
    await expect(
      t
        .get(Database)
        .transaction((tx) =>
          writer.upsertImported(tx, { slug: 'x/raw', title: 'X', content: '' }, actor),
        ),
    ).rejects.toMatchObject({
      status: 422,
    });
    await expect(
      t
        .get(Database)
        .transaction((tx) =>
          writer.upsertImported(
            tx,
            { slug: 'x', title: 'X', content: '', ownerId: '00000000-0000-4000-8000-000000000000' },
            actor,
          ),
        ),
    ).rejects.toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ field: 'ownerId', code: 'unknown_user' })],
    });
    const owned = await t
      .get(Database)
      .transaction((tx) =>
        writer.upsertImported(
          tx,
          { slug: 'owned', title: 'Owned', content: '', ownerId: editor.user!.id },
          actor,
        ),
      );
    expect(owned).toBe('created');
    expect((await admin.get('/api/pages/owned').expect(200)).body.owner).toBe(
      editor.user!.username,
    );
  });

  it('findLiveBySlugs normalises and skips binned pages', async () => {
    await createPage(editor, 'one');
    await createPage(editor, 'two');
    await admin.delete('/api/pages/two').expect(204);
    const found = await pages.findLiveBySlugs(['ONE', 'two', 'three']);
    expect(found.map((p) => p.slug)).toEqual(['one']);
    expect(await pages.findLiveBySlugs([])).toEqual([]);
  });

  it('listReviewDue answers live pages past their date, oldest first', async () => {
    await createPage(editor, 'late', {
      owner: editor.user!.username,
      nextReviewAt: '2020-01-01T00:00:00.000Z',
    });
    await createPage(editor, 'later', { owner: null, nextReviewAt: '2021-01-01T00:00:00.000Z' });
    await createPage(editor, 'future', { nextReviewAt: '2999-01-01T00:00:00.000Z' });
    await createPage(editor, 'binned', { nextReviewAt: '2019-01-01T00:00:00.000Z' });
    await admin.delete('/api/pages/binned').expect(204);
    const due = await browse.reviewDueBatch(new Date('2025-01-01T00:00:00Z'), 10);
    expect(due).toEqual([
      {
        id: expect.any(String),
        slug: 'late',
        title: 'Title of late',
        ownerId: editor.user!.id,
        ownerName: editor.user!.username,
        nextReviewAt: new Date('2020-01-01T00:00:00.000Z'),
      },
      {
        id: expect.any(String),
        slug: 'later',
        title: 'Title of later',
        ownerId: null,
        ownerName: null,
        nextReviewAt: new Date('2021-01-01T00:00:00.000Z'),
      },
    ]);
    expect(await browse.reviewDueBatch(new Date('2025-01-01T00:00:00Z'), 1)).toHaveLength(1);
  });
});
