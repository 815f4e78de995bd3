import { eventually } from '../support/eventually';
import { createPage, updatePage } from '../support/pages';
import { validationProblem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createUser, signedIn } from '../support/users';
import { postImport, zip } from '../support/import-helpers';

describe('page owners: the creator owns a new page', () => {
  let t: TestApp;
  let editor: Client;
  let other: Client;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    editor = await signedIn(t, 'editor');
    other = await signedIn(t, 'editor');
    admin = await signedIn(t, 'admin');
  });

  const ownerOf = async (slug: string) =>
    (await admin.get(`/api/pages/${slug}`).expect(200)).body.owner as string | null;
  const inbox = async (c: Client) =>
    (await c.get('/api/notifications').expect(200)).body.items as { kind: string }[];

  it('makes the creator the owner when the body names none, so edits and the bin reach them', async () => {
    const created = await createPage(editor, 'team/handbook');
    expect(created.owner).toBe(editor.user!.username);
    expect(await ownerOf('team/handbook')).toBe(editor.user!.username);

    await updatePage(other, 'team/handbook', { content: 'Changed by someone else.' });
    await eventually(async () =>
      expect((await inbox(editor)).map((n) => n.kind)).toEqual(['page.updated']),
    );
    await admin.delete('/api/pages/team/handbook').expect(204);
    // (The edit notice names a page that is now in the bin: only the bin notice is listed.)
    await eventually(async () =>
      expect((await inbox(editor)).map((n) => n.kind)).toEqual(['page.binned']),
    );
  });

  it('lets the body name another owner, or nobody (null); an update without owner keeps it', async () => {
    const named = await createPage(editor, 'named', { owner: other.user!.username.toUpperCase() });
    expect(named.owner).toBe(other.user!.username);
    const nobody = await createPage(editor, 'nobody', { owner: null });
    expect(nobody.owner).toBeNull();
    expect((await updatePage(admin, 'named', { title: 'Renamed' })).owner).toBe(
      other.user!.username,
    );
    expect((await updatePage(admin, 'nobody', { title: 'Still nobody' })).owner).toBeNull();
    expect((await updatePage(other, 'named', { owner: null })).owner).toBeNull();
  });

  it('refuses an owner who is not an active user (422) and creates nothing', async () => {
    const disabled = await createUser(t, 'editor');
    await admin.patch(`/api/users/${disabled.id}`).send({ disabled: true }).expect(200);
    const res = await editor
      .post('/api/pages')
      .send({ slug: 'x', title: 'X', owner: disabled.username })
      .expect(422);
    expect(res.body).toEqual(
      validationProblem({
        field: 'owner',
        code: 'unknown_user',
        message: `No active user named "${disabled.username}".`,
      }),
    );
    await admin.get('/api/pages/x').expect(404);
  });

  it('imports: a new page belongs to the importer, a replaced page keeps its owner', async () => {
    const files = {
      'guide/intro.md': '# Intro\n\nFirst.\n',
      'guide/setup.md': '# Setup\n\nSecond.\n',
    };
    await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'docs.zip', data: zip(files) }],
    }).expect(200);
    expect(await ownerOf('guide/intro')).toBe(admin.user!.username);
    expect(await ownerOf('guide/setup')).toBe(admin.user!.username);

    await updatePage(admin, 'guide/intro', { owner: editor.user!.username });
    const again = await postImport(admin, {
      format: 'markdown',
      files: [
        {
          name: 'docs.zip',
          data: zip({ ...files, 'guide/intro.md': '# Intro\n\nFirst, revised.\n' }),
        },
      ],
    }).expect(200);
    expect(again.body.replaced).toEqual(['guide/intro']);
    expect(await ownerOf('guide/intro')).toBe(editor.user!.username);
    expect(await ownerOf('guide/setup')).toBe(admin.user!.username);
  });

  it('kb archives: the manifest owner when a user here, nobody for null, else the importer', async () => {
    const entry = (slug: string, owner: string | null) => ({
      path: `${slug}.md`,
      slug,
      title: slug,
      owner,
      tags: [],
      groups: [],
      properties: {},
      variables: {},
      verified: true,
      media: [],
    });
    const manifest = {
      format: 'kb-archive',
      version: 1,
      selection: 'all',
      siteVariables: {},
      pages: [
        entry('kept', other.user!.username),
        entry('ownerless', null),
        entry('ghost', 'nobody-by-this-name'),
      ],
      media: [],
    };
    const archive = zip({
      'kept.md': '# kept\n\nA.\n',
      'ownerless.md': '# ownerless\n\nB.\n',
      'ghost.md': '# ghost\n\nC.\n',
      'manifest.json': JSON.stringify(manifest),
    });
    await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'kb.zip', data: archive }],
    }).expect(200);
    expect(await ownerOf('kept')).toBe(other.user!.username);
    expect(await ownerOf('ownerless')).toBeNull();
    expect(await ownerOf('ghost')).toBe(admin.user!.username);
  });
});
