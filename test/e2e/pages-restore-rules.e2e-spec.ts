import { allItems, createPage, PageJson } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

/**
 * A revision restore runs every rule an update runs (issue 9, item 3): groups the caller may
 * assign, keeping their own access, targets they can see. A refused restore writes nothing.
 */
describe('revision restore obeys the update rules', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client; // editor in g1

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    for (const name of ['g1', 'g2', 'g3']) await createGroup(t, name);
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor', { groups: ['g1'] });
  });

  /** Admin writes revision 1 with `first`, then revision 2 with `second`. */
  async function twoRevisions(
    first: Record<string, unknown>,
    second: Record<string, unknown>,
  ): Promise<{ oldest: PageJson; before: PageJson }> {
    await createPage(admin, 'doc', { content: 'one', ...first });
    await admin
      .put('/api/pages/doc')
      .send({ baseRevision: 1, content: 'two', ...second })
      .expect(200);
    const revisions = await allItems(admin, '/api/revisions?slug=doc');
    const before = (await admin.get('/api/pages/doc').expect(200)).body as PageJson;
    return { oldest: revisions[revisions.length - 1], before };
  }

  async function expectUnchanged(before: PageJson): Promise<void> {
    const after = await admin.get('/api/pages/doc').expect(200);
    expect(after.body).toEqual(before);
    expect(await allItems(admin, '/api/revisions?slug=doc')).toHaveLength(2);
  }

  it('refuses a restore that would move the page out of the editor’s reach (the audit case)', async () => {
    const { oldest, before } = await twoRevisions({ groups: ['g2'] }, { groups: ['g1'] });
    await editor.get('/api/pages/doc').expect(200);
    const res = await editor.post(`/api/revisions/${oldest.id}/restore`).send({}).expect(422);
    expect(res.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [{ field: 'groups[0]', code: 'group_not_assignable', message: expect.any(String) }],
      }),
    );
    await expectUnchanged(before);
    await editor.get('/api/pages/doc').expect(200);
  });

  it('refuses to assign, through a restore, a group the editor does not belong to', async () => {
    const { oldest, before } = await twoRevisions({ groups: ['g1', 'g3'] }, { groups: ['g1'] });
    const res = await editor.post(`/api/revisions/${oldest.id}/restore`).send({}).expect(422);
    expect(res.body.errors).toEqual([
      { field: 'groups[1]', code: 'group_not_assignable', message: expect.any(String) },
    ]);
    await expectUnchanged(before);
  });

  it('refuses to keep only groups the editor is not in, even ones the page already has', async () => {
    const { oldest, before } = await twoRevisions({ groups: ['g2'] }, { groups: ['g1', 'g2'] });
    const res = await editor.post(`/api/revisions/${oldest.id}/restore`).send({}).expect(422);
    expect(res.body.errors).toEqual([
      { field: 'groups', code: 'would_lose_access', message: expect.any(String) },
    ]);
    await expectUnchanged(before);
  });

  it('refuses a deprecated target the editor cannot see', async () => {
    await createPage(admin, 'secret', { groups: ['g2'] });
    const { oldest, before } = await twoRevisions(
      { deprecatedTarget: 'secret' },
      { deprecatedTarget: null },
    );
    const res = await editor.post(`/api/revisions/${oldest.id}/restore`).send({}).expect(422);
    expect(res.body.errors).toEqual([
      { field: 'deprecatedTarget', code: 'unknown_page', message: expect.any(String) },
    ]);
    await expectUnchanged(before);
  });

  it('restores what the editor may set, and an admin may restore anything', async () => {
    const { oldest } = await twoRevisions({ groups: ['g1'] }, { groups: [] });
    await editor.post(`/api/revisions/${oldest.id}/restore`).send({}).expect(200);
    const page = await admin.get('/api/pages/doc').expect(200);
    expect(page.body).toMatchObject({ revision: 3, content: 'one', groups: ['g1'] });

    const other = await twoRevisionsOf('other', { groups: ['g2'] }, { groups: ['g1'] });
    await admin.post(`/api/revisions/${other.id}/restore`).send({}).expect(200);
    const restored = await admin.get('/api/pages/other').expect(200);
    expect(restored.body).toMatchObject({ revision: 3, groups: ['g2'] });
    await editor.get('/api/pages/other').expect(404);
  });

  async function twoRevisionsOf(
    slug: string,
    first: Record<string, unknown>,
    second: Record<string, unknown>,
  ): Promise<PageJson> {
    await createPage(admin, slug, { content: 'one', ...first });
    await admin
      .put(`/api/pages/${slug}`)
      .send({ baseRevision: 1, content: 'two', ...second })
      .expect(200);
    const revisions = await allItems(admin, `/api/revisions?slug=${slug}`);
    return revisions[revisions.length - 1];
  }
});
