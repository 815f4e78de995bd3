import { createPage, updatePage } from '../support/pages';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

describe('includes: ![[slug]] and ![[slug#name]] filled per reader', () => {
  let t: TestApp;
  let admin: Client;
  let reader: Client;
  let member: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'staff');
    admin = await signedIn(t, 'admin');
    reader = await signedIn(t, 'reader');
    member = await signedIn(t, 'reader', { groups: ['staff'] });
  });

  const htmlOf = async (c: Client, slug: string) =>
    (await c.get(`/api/pages/${slug}`).expect(200)).body.html as string;
  const UNAVAILABLE = (key: string) =>
    `<div class="kb-include kb-include-unavailable" data-include="${key}">` +
    '<p class="kb-include-note">Included content is not available.</p></div>';

  it('includes a whole page and a named excerpt, and refreshes when the included page changes', async () => {
    await createPage(admin, 'ops/shared', {
      content: 'Intro *text*.\n\n:::excerpt steps\n1. Restart\n2. Check\n:::\n\nOutro.',
    });
    await createPage(admin, 'ops/runbook', {
      content: '# Runbook\n\n![[ops/shared]]\n\nBetween.\n\n![[ops/shared#steps]]\n',
    });
    const html = await htmlOf(reader, 'ops/runbook');
    expect(html).toContain(
      '<div class="kb-include" data-include="ops/shared"><p>Intro <em>text</em>.</p>',
    );
    expect(html).toContain(
      '<div class="kb-include" data-include="ops/shared#steps">\n<ol>\n<li>Restart</li>\n<li>Check</li>\n</ol>\n</div>',
    );
    expect(html).not.toMatch(/data-include="ops\/shared#steps">[^]*Outro/);

    // The stored HTML holds the empty placeholders only.
    const [row] = await t.dataSource.query('SELECT html FROM pages WHERE live_slug = ?', [
      'ops/runbook',
    ]);
    expect(String(row.html)).toContain('<div class="kb-include" data-include="ops/shared"></div>');
    expect(String(row.html)).not.toContain('Restart');

    // An edit of the included page shows at the next read, even to a client holding the ETag.
    const before = await reader.get('/api/pages/ops/runbook').expect(200);
    await updatePage(admin, 'ops/shared', {
      content: ':::excerpt steps\n1. Drain\n:::\n',
    });
    const after = await reader
      .get('/api/pages/ops/runbook')
      .set('If-None-Match', before.headers.etag as string)
      .expect(200);
    expect(after.body.html).toContain('<li>Drain</li>');
    expect(after.body.html).not.toContain('Restart');
    // A page without includes still answers 304.
    const shared = await reader.get('/api/pages/ops/shared').expect(200);
    await reader
      .get('/api/pages/ops/shared')
      .set('If-None-Match', shared.headers.etag as string)
      .expect(304);
  });

  it('shows the same neutral note for a missing page, an invisible page and a missing excerpt', async () => {
    await createPage(admin, 'docs/secret', { groups: ['staff'], content: 'Secret plans.' });
    await createPage(admin, 'docs/open', { content: 'Open words.' });
    await createPage(admin, 'docs/main', {
      content: '![[docs/secret]]\n\n![[docs/nowhere]]\n\n![[docs/open#none]]\n',
    });
    const forReader = await htmlOf(reader, 'docs/main');
    expect(forReader).toBe(
      `${UNAVAILABLE('docs/secret')}\n${UNAVAILABLE('docs/nowhere')}\n${UNAVAILABLE('docs/open#none')}\n`,
    );
    expect(forReader).not.toContain('Secret');
    // Read again from the response cache: each reader gets their own.
    const forMember = await htmlOf(member, 'docs/main');
    expect(forMember).toContain(
      '<div class="kb-include" data-include="docs/secret"><p>Secret plans.</p>\n</div>',
    );
    expect(await htmlOf(reader, 'docs/main')).toBe(forReader);
    expect(await htmlOf(member, 'docs/main')).toBe(forMember);
    // The answer to the write is filled for the writer too.
    const created = await createPage(admin, 'docs/second', {
      content: '![[docs/open]]',
    });
    expect(created.html).toContain('<div class="kb-include" data-include="docs/open"><p>Open');
  });

  it('catches cycles and stops at three levels of inclusion', async () => {
    await createPage(admin, 'c/a', { content: 'A\n\n![[c/b]]' });
    await createPage(admin, 'c/b', { content: 'B\n\n![[c/a]]' });
    const cycle = await htmlOf(reader, 'c/a');
    expect(cycle).toBe(
      '<p>A</p>\n<div class="kb-include" data-include="c/b"><p>B</p>\n' +
        '<div class="kb-include kb-include-unavailable" data-include="c/a"><p class="kb-include-note">' +
        'Included content is not shown: it includes itself.</p></div>\n</div>\n',
    );
    await createPage(admin, 'c/self', { content: '![[c/self]]' });
    expect(await htmlOf(reader, 'c/self')).toContain('it includes itself');

    await createPage(admin, 'd/4', { content: 'four' });
    await createPage(admin, 'd/3', { content: 'three\n\n![[d/4]]' });
    await createPage(admin, 'd/2', { content: 'two\n\n![[d/3]]' });
    await createPage(admin, 'd/1', { content: 'one\n\n![[d/2]]' });
    await createPage(admin, 'd/0', { content: 'zero\n\n![[d/1]]' });
    const deep = await htmlOf(reader, 'd/0');
    expect(deep).toContain('<p>three</p>');
    expect(deep).not.toContain('four');
    expect(deep).toContain(
      '<div class="kb-include kb-include-unavailable" data-include="d/4"><p class="kb-include-note">' +
        'Included content is not shown: includes nest at most 3 levels deep.</p></div>',
    );
    // Three levels down from d/1 reach d/4.
    expect(await htmlOf(reader, 'd/1')).toContain('<p>four</p>');
  });

  it('records an include as a link: backlinks and the graph', async () => {
    await createPage(admin, 'g/included');
    await createPage(admin, 'g/includer', { content: '![[g/included#part]]' });
    const included = (await reader.get('/api/pages/g/included').expect(200)).body;
    expect(included.backlinks).toEqual([{ slug: 'g/includer', title: 'Title of g/includer' }]);
    const graph = (await reader.get('/api/graph').expect(200)).body;
    expect(graph.edges).toEqual([{ from: 'g/includer', to: 'g/included' }]);
  });

  it('fills includes in the preview and the print document for the caller', async () => {
    await createPage(admin, 'p/secret', { groups: ['staff'], content: 'Hidden.' });
    await createPage(admin, 'p/part', {
      content: 'x\n\n:::excerpt one\nShared **part**.\n:::\n',
    });
    await createPage(admin, 'p/doc', { content: '![[p/part#one]]\n\n![[p/secret]]\n' });
    const editor = await signedIn(t, 'editor');
    const preview = await editor
      .post('/api/preview')
      .send({ content: '![[p/part#one]]\n\n![[p/secret]]' })
      .expect(200);
    expect(preview.body.html).toBe(
      '<div class="kb-include" data-include="p/part#one">\n<p>Shared <strong>part</strong>.</p>\n</div>\n' +
        `${UNAVAILABLE('p/secret')}\n`,
    );
    const print = await editor.post('/export/preview/p/doc').send({}).expect(200);
    expect(print.body.document).toContain(
      '<div class="kb-include" data-include="p/part#one">\n<p>Shared <strong>part</strong>.</p>',
    );
    expect(print.body.document).toContain(UNAVAILABLE('p/secret'));
    const printAdmin = await admin.post('/export/preview/p/doc').send({}).expect(200);
    expect(printAdmin.body.document).toContain('<p>Hidden.</p>');
  });
});
