import { visibleSql, Viewer } from '../../src/pages/store/visibility-sql';
import { postImport, zip } from '../support/import-helpers';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

type Counts = [string, number][];

/**
 * GET /api/tags reads the counts kept in `tag_counts` by every write. After each kind of write
 * the answer must equal what counting the visible pages' tags directly says, for an
 * administrator, a viewer in no group and a viewer in a group, page by page of the list.
 */
describe('GET /api/tags: counts kept on write', () => {
  let t: TestApp;
  let admin: Client;
  let reader: Client;
  let member: Client;

  /** The tags of the pages `viewer` may see, counted from page_tags (the old GROUP BY). */
  async function counted(viewer: Viewer): Promise<Counts> {
    const visible = visibleSql(viewer, 'p');
    const groups = await t.dataSource.query(
      `SELECT id FROM access_groups WHERE name IN (${viewer.groups.map(() => '?').join(', ') || "''"})`,
      viewer.groups,
    );
    expect(groups).toHaveLength(viewer.groups.length);
    const rows: { tag: string; n: string | number }[] = await t.dataSource.query(
      'SELECT t.tag AS tag, COUNT(*) AS n FROM page_tags t INNER JOIN pages p ON p.id = t.page_id ' +
        `WHERE ${visible.sql} GROUP BY t.tag`,
      visible.params,
    );
    return rows.map((r): [string, number] => [r.tag, Number(r.n)]).sort(byTag);
  }

  /** Every tag of the list for `client`, two at a time through the cursor. */
  async function listed(client: Client): Promise<Counts> {
    const all: Counts = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const res = await client.get(`/api/tags${query}`).expect(200);
      for (const item of res.body.items as { name: string; count: number }[])
        all.push([item.name, item.count]);
      cursor = res.body.nextCursor;
    } while (cursor);
    return all;
  }

  async function stored(column: 'live_count' | 'open_count'): Promise<Counts> {
    const rows: { tag: string; n: string | number }[] = await t.dataSource.query(
      `SELECT tag, ${column} AS n FROM tag_counts WHERE ${column} <> 0`,
    );
    return rows.map((r): [string, number] => [r.tag, Number(r.n)]).sort(byTag);
  }

  async function expectCountsRight(): Promise<void> {
    const asAdmin = await counted({ role: 'admin', groups: [] });
    const asReader = await counted({ role: 'reader', groups: [] });
    const asMember = await counted({ role: 'reader', groups: ['hr'] });
    expect(await listed(admin)).toEqual(asAdmin);
    expect(await listed(reader)).toEqual(asReader);
    expect(await listed(member)).toEqual(asMember);
    expect(await stored('live_count')).toEqual(asAdmin);
    expect(await stored('open_count')).toEqual(asReader);
  }

  async function put(slug: string, body: Record<string, unknown>): Promise<void> {
    const page = await admin.get(`/api/pages/${slug}`).expect(200);
    await admin
      .put(`/api/pages/${slug}`)
      .send({ baseRevision: page.body.revision, ...body })
      .expect(200);
  }

  async function binnedId(slug: string): Promise<string> {
    const bin = await admin.get('/api/bin').expect(200);
    return (bin.body.items as { id: string; slug: string }[]).find((p) => p.slug === slug)!.id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    await createGroup(t, 'hr');
    await createGroup(t, 'eng');
    admin = await signedIn(t, 'admin');
    reader = await signedIn(t, 'reader');
    member = await signedIn(t, 'reader', { groups: ['hr'] });
  });
  afterAll(() => t.close());

  it('follows creates, tag and group changes, the bin, restores, purges and imports', async () => {
    const create = (slug: string, tags: string[], groups: string[] = []) =>
      admin
        .post('/api/pages')
        .send({ slug, title: slug, content: 'text', tags, groups })
        .expect(201);
    await create('a', ['x', 'y']);
    await create('b', ['y'], ['hr']);
    await create('c', ['y', 'z'], ['eng']);
    await create('d', []);
    await create('e', ['x'], ['hr', 'eng']);
    await expectCountsRight();
    expect(await listed(member)).toEqual([
      ['x', 2],
      ['y', 2],
    ]);

    await put('a', { tags: ['z'] });
    await put('b', { groups: [] });
    await put('c', { groups: ['hr', 'eng'] });
    await put('d', { content: 'edited, tags as they were' });
    await expectCountsRight();

    await admin.delete('/api/pages/a').expect(204);
    await admin.delete('/api/pages/c').expect(204);
    await expectCountsRight();
    await admin.post(`/api/bin/${await binnedId('a')}/restore`).expect(200);
    await expectCountsRight();
    await admin.delete(`/api/bin/${await binnedId('c')}`).expect(204);
    await expectCountsRight();

    const page = (tags: string) => `---\ntags: [${tags}]\n---\n# Imported\n\ntext\n`;
    await postImport(admin, {
      format: 'markdown',
      prefix: 'imp',
      files: [
        { name: 'pages.zip', data: zip({ 'one.md': page('y, new'), 'two.md': page('new') }) },
      ],
    }).expect(200);
    await expectCountsRight();
    // Imported again: one page keeps a tag, loses one and gains one.
    await postImport(admin, {
      format: 'markdown',
      prefix: 'imp',
      files: [
        { name: 'pages.zip', data: zip({ 'one.md': page('x, new'), 'two.md': page('new') }) },
      ],
    }).expect(200);
    await expectCountsRight();
    expect((await listed(admin)).find(([tag]) => tag === 'new')).toEqual(['new', 2]);
  });
});

function byTag(a: [string, number], b: [string, number]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
