import { unzipSync } from 'fflate';
import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';
import {
  binary,
  setSiteVariables,
  testPng,
  UploadedMedia,
  uploadAttachment,
  uploadImage,
} from '../support/export-fixtures';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('export: single page as Markdown or ZIP', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    await createGroup(t, 'finance');
    await setSiteVariables(admin, { site_name: 'KB Inc' });
  });

  function download(client: Client, slug: string) {
    return client.get(`/api/export/pages/${slug}`).buffer(true).parse(binary);
  }

  it('answers text/markdown with "# Title" first and {{variables}} kept, byte for byte', async () => {
    await createPage(admin, 'guide/intro', {
      title: 'Intro to {{customer}}',
      content:
        'Hello {{customer}} from {{ site_name }}.\n\nSee [other](/guide/other) and ![remote](https://example.com/x.png).\n',
      variables: { customer: 'Default Corp' },
    });
    const res = await download(editor, 'guide/intro').expect(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="intro.md"; filename*=UTF-8''intro.md`,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect((res.body as Buffer).toString('utf8')).toBe(
      '# Intro to {{customer}}\n\nHello {{customer}} from {{ site_name }}.\n\nSee [other](/guide/other) and ![remote](https://example.com/x.png).\n',
    );
    // A request-local override elsewhere never reaches a Markdown export.
    await editor
      .post('/export/preview/guide/intro')
      .send({ variables: { customer: 'ACME' } })
      .expect(200);
    expect((await download(editor, 'guide/intro').expect(200)).body.toString('utf8')).not.toContain(
      'ACME',
    );
  });

  it('writes just the title for an empty page and gives a safe file name for any slug', async () => {
    await createPage(admin, 'handbuch/Übersicht-2026', { title: 'Übersicht', content: '' });
    const res = await download(editor, 'handbuch/übersicht-2026').expect(200);
    expect((res.body as Buffer).toString('utf8')).toBe('# Übersicht\n');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_bersicht-2026.md"; filename*=UTF-8''%C3%BCbersicht-2026.md`,
    );
  });

  it('answers a ZIP with images/ when the page shows stored images, references rewritten', async () => {
    const one = await uploadImage(admin, testPng(1), 'logo.png');
    const two = await uploadImage(admin, testPng(2), 'logo.png');
    const three = await uploadImage(admin, testPng(3), 'My Photo (final).PNG');
    const manual = await uploadAttachment(admin, Buffer.from('%PDF-1.4 manual'), 'manual.pdf');
    const content = [
      `![one](${one.url}) and ![two](${two.url} "Second")`,
      '',
      `<img src="${three.url}" alt="three">`,
      '',
      `Again: ![one again](${one.url}), [the manual](${manual.url}), ![gone](/api/images/${MISSING}/content).`,
      '',
      `Not ours: https://other.example.com${one.url}`,
    ].join('\n');
    await createPage(admin, 'gallery', { title: 'Gallery', content });
    const res = await download(editor, 'gallery').expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="gallery.zip"; filename*=UTF-8''gallery.zip`,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    const entries = unzipSync(new Uint8Array(res.body as Buffer));
    expect(Object.keys(entries)).toEqual([
      'gallery.md',
      'images/logo.png',
      'images/logo-2.png',
      'images/My_Photo_final_.PNG',
    ]);
    expect(Buffer.from(entries['gallery.md']).toString('utf8')).toBe(
      [
        '# Gallery',
        '',
        '![one](images/logo.png) and ![two](images/logo-2.png "Second")',
        '',
        '<img src="images/My_Photo_final_.PNG" alt="three">',
        '',
        `Again: ![one again](images/logo.png), [the manual](${manual.url}), ![gone](/api/images/${MISSING}/content).`,
        '',
        `Not ours: https://other.example.com${one.url}`,
        '',
      ].join('\n'),
    );
    const bytes = (name: string) => Buffer.from(entries[name]);
    expect(bytes('images/logo.png').equals(one.bytes)).toBe(true);
    expect(bytes('images/logo-2.png').equals(two.bytes)).toBe(true);
    expect(bytes('images/My_Photo_final_.PNG').equals(three.bytes)).toBe(true);
  });

  it('?format= chooses: markdown alone (image URLs kept), a ZIP even without images, 422 otherwise', async () => {
    const logo = await uploadImage(admin, testPng(1), 'logo.png');
    await createPage(admin, 'pictured', { title: 'Pictured', content: `![logo](${logo.url})` });
    await createPage(admin, 'plain', { title: 'Plain', content: 'Just text.' });

    const markdown = await editor
      .get('/api/export/pages/pictured?format=markdown')
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(markdown.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(markdown.headers['content-disposition']).toBe(
      `attachment; filename="pictured.md"; filename*=UTF-8''pictured.md`,
    );
    expect((markdown.body as Buffer).toString('utf8')).toBe(`# Pictured\n\n![logo](${logo.url})\n`);

    const zip = await editor
      .get('/api/export/pages/plain?format=zip')
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toBe(
      `attachment; filename="plain.zip"; filename*=UTF-8''plain.zip`,
    );
    const entries = unzipSync(new Uint8Array(zip.body as Buffer));
    expect(Object.keys(entries)).toEqual(['plain.md']);
    expect(Buffer.from(entries['plain.md']).toString('utf8')).toBe('# Plain\n\nJust text.\n');

    const withImages = await editor
      .get('/api/export/pages/pictured?format=zip')
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(Object.keys(unzipSync(new Uint8Array(withImages.body as Buffer)))).toEqual([
      'pictured.md',
      'images/logo.png',
    ]);

    const bad = await editor.get('/api/export/pages/plain?format=pdf').expect(422);
    expect(bad.body).toEqual(
      problem(422, 'validation_failed', {
        errors: [expect.objectContaining({ field: 'format' })],
      }),
    );
  });

  it('stays plain Markdown when the only media references are attachments or missing images', async () => {
    const manual: UploadedMedia = await uploadAttachment(
      admin,
      Buffer.from('%PDF-1.4 manual'),
      'manual.pdf',
    );
    await createPage(admin, 'docs', {
      title: 'Docs',
      content: `[manual](${manual.url}) ![gone](/api/images/${MISSING}/content)`,
    });
    const res = await download(editor, 'docs').expect(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect((res.body as Buffer).toString('utf8')).toBe(
      `# Docs\n\n[manual](${manual.url}) ![gone](/api/images/${MISSING}/content)\n`,
    );
  });

  it('respects visibility (404 for hidden, missing and binned pages) and takes sessions or bearer tokens', async () => {
    await createPage(admin, 'secret', { title: 'Secret', content: 'x', groups: ['finance'] });
    await createPage(admin, 'open', { title: 'Open', content: 'y' });
    expect((await editor.get('/api/export/pages/secret').expect(404)).body).toEqual(
      problem(404, 'page_not_found'),
    );
    expect((await editor.get('/api/export/pages/nothing/here').expect(404)).body).toEqual(
      problem(404, 'page_not_found'),
    );
    const member = await signedIn(t, 'reader', { groups: ['finance'] });
    expect((await download(member, 'secret').expect(200)).body.toString('utf8')).toBe(
      '# Secret\n\nx\n',
    );
    expect((await download(admin, 'secret').expect(200)).body.toString('utf8')).toBe(
      '# Secret\n\nx\n',
    );
    const bearer = await member.withToken();
    expect((await download(bearer, 'secret').expect(200)).body.toString('utf8')).toBe(
      '# Secret\n\nx\n',
    );
    expect((await anonymous(t).get('/api/export/pages/open').expect(401)).body).toEqual(
      problem(401, 'unauthenticated'),
    );
    await admin.delete('/api/pages/open').expect(204);
    expect((await admin.get('/api/export/pages/open').expect(404)).body).toEqual(
      problem(404, 'page_not_found'),
    );
  });
});
