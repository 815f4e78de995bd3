import { DataSource } from 'typeorm';
import { GroupsService } from '../../src/auth/groups.service';
import { AuthUser } from '../../src/common/auth/auth-user';
import { ConflictProblem, NotFoundProblem } from '../../src/common/problems/problem';
import { PageBinService } from '../../src/pages/page-bin.service';
import { PageWriterService } from '../../src/pages/page-writer.service';
import { PagesService } from '../../src/pages/pages.service';
import { SearchService } from '../../src/pages/search/search.service';
import { createServiceContext, ServiceContext } from '../support/service-context';

/** The page use cases as the controllers call them, on a real SQLite database, without HTTP. */
describe('pages use cases (service tier)', () => {
  let kb: ServiceContext;
  let editor: AuthUser;
  let reader: AuthUser;

  beforeAll(async () => {
    kb = await createServiceContext();
  });
  afterAll(() => kb.close());
  beforeEach(async () => {
    await kb.reset();
    editor = await kb.user('editor');
    reader = await kb.user('reader');
  });

  const revisionsOf = async (slug: string) =>
    (
      await kb
        .get(DataSource)
        .query(
          'SELECT r.revision, r.content FROM page_revisions r JOIN pages p ON p.id = r.page_id WHERE p.slug = ? ORDER BY r.revision',
          [slug],
        )
    ).map((row: { revision: number; content: string }) => [Number(row.revision), row.content]);

  it('writes a revision for every change and refuses a stale base without writing', async () => {
    const writer = kb.get(PageWriterService);
    await writer.create({ slug: 'ops/runbook', title: 'Runbook', content: 'one' }, editor);
    await writer.update('ops/runbook', { content: 'two' }, editor, { baseRevision: 1 });

    await expect(
      writer.update('ops/runbook', { content: 'lost?' }, editor, { baseRevision: 1 }),
    ).rejects.toMatchObject({ code: 'revision_conflict', extensions: { currentRevision: 2 } });
    expect(await revisionsOf('ops/runbook')).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    const page = await kb.get(PagesService).getVisible('ops/runbook', reader);
    expect(page).toMatchObject({ content: 'two', revision: 2, ownerId: editor.id });
  });

  it('refuses a second page at a live slug and keeps the first', async () => {
    const writer = kb.get(PageWriterService);
    await writer.create({ slug: 'team', title: 'Team', content: 'first' }, editor);
    const second = writer.create({ slug: 'team', title: 'Other', content: 'second' }, editor);
    await expect(second).rejects.toBeInstanceOf(ConflictProblem);
    await expect(second).rejects.toMatchObject({ code: 'slug_taken' });
    expect(await revisionsOf('team')).toEqual([[1, 'first']]);
  });

  it('hides a group page from readers outside the group, in reads and search', async () => {
    await kb.get(GroupsService).create('hr');
    const insider = await kb.user('reader', ['hr']);
    const hrEditor = await kb.user('editor', ['hr']);
    const writer = kb.get(PageWriterService);
    // An editor outside the group may not give a page to it (a field problem, nothing written).
    await expect(
      writer.create({ slug: 'hr/x', title: 'X', content: 'x', groups: ['hr'] }, editor),
    ).rejects.toMatchObject({
      errors: [{ field: 'groups[0]', code: 'group_not_assignable' }],
    });
    await writer.create(
      { slug: 'hr/salaries', title: 'Salaries', content: 'zebracorn bands', groups: ['hr'] },
      hrEditor,
    );
    expect(await revisionsOf('hr/x')).toEqual([]);
    await writer.create({ slug: 'open', title: 'Open', content: 'zebracorn open' }, editor);

    await expect(kb.get(PagesService).getVisible('hr/salaries', reader)).rejects.toBeInstanceOf(
      NotFoundProblem,
    );
    const search = kb.get(SearchService);
    const slugsFor = async (user: AuthUser) =>
      (await search.search({ q: 'zebracorn', limit: '20' }, user)).items.map((i) => i.slug).sort();
    expect(await slugsFor(reader)).toEqual(['open']);
    expect(await slugsFor(insider)).toEqual(['hr/salaries', 'open']);
  });

  it('moves a page to the bin and restores it with its revisions', async () => {
    const writer = kb.get(PageWriterService);
    await writer.create({ slug: 'old/notes', title: 'Notes', content: 'keep me' }, editor);
    const bin = kb.get(PageBinService);
    await bin.moveToBin('old/notes', editor);

    await expect(kb.get(PagesService).getVisible('old/notes', editor)).rejects.toBeInstanceOf(
      NotFoundProblem,
    );
    const listed = await bin.list({ limit: 10 } as Parameters<PageBinService['list']>[0]);
    expect(listed.items.map((item) => item.slug)).toEqual(['old/notes']);

    await bin.restore(listed.items[0].id, editor);
    const page = await kb.get(PagesService).getVisible('old/notes', reader);
    expect(page.content).toBe('keep me');
    expect((await revisionsOf('old/notes')).map(([revision]: [number]) => revision)).toEqual([1]);
  });
});
