import { createPage } from '../support/pages';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

describe('page reads mark links to pages the reader cannot open with class kb-missing', () => {
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

  const CONTENT = [
    '# Links',
    '',
    '[open](/docs/open) [secret](/docs/secret) [nowhere](/docs/nowhere) [relative](nowhere2#part)',
    '[again](/docs/secret) [site](https://example.com) [api](/api/pages)',
  ].join('\n');

  const htmlOf = async (c: Client, slug = 'docs/links') =>
    (await c.get(`/api/pages/${slug}`).expect(200)).body.html as string;

  it('marks missing and invisible targets alike, per reader, and only those', async () => {
    await createPage(admin, 'docs/open');
    await createPage(admin, 'docs/secret', { groups: ['staff'] });
    await createPage(admin, 'docs/links', { content: CONTENT });

    const missing = (slug: string, text: string, fragment = '') =>
      `<a href="/docs/${slug}${fragment}" class="kb-missing">${text}</a>`;
    const link = (slug: string, text: string) => `<a href="/docs/${slug}">${text}</a>`;
    const forReader = await htmlOf(reader);
    expect(forReader).toContain(
      `<p>${link('open', 'open')} ${missing('secret', 'secret')} ${missing('nowhere', 'nowhere')} ` +
        `${missing('nowhere2', 'relative', '#part')}\n${missing('secret', 'again')} ` +
        '<a href="https://example.com">site</a> <a href="/api/pages">api</a></p>',
    );
    // The member of the group sees the secret page: only the missing ones are marked.
    const forMember = await htmlOf(member);
    expect(forMember).toContain(
      `${link('open', 'open')} ${link('secret', 'secret')} ${missing('nowhere', 'nowhere')}`,
    );
    expect(await htmlOf(admin)).toBe(forMember);
    // Read again (now from the response cache), each reader still gets their own marks.
    expect(await htmlOf(reader)).toBe(forReader);
    expect(await htmlOf(member)).toBe(forMember);

    // Nothing tells a missing target from an invisible one.
    const secretTag = /<a href="\/docs\/secret"[^>]*>/.exec(forReader)![0];
    const nowhereTag = /<a href="\/docs\/nowhere"[^>]*>/.exec(forReader)![0];
    expect(secretTag.replace('secret', 'X')).toBe(nowhereTag.replace('nowhere', 'X'));

    // A page created at a missing target is a working link at the next read; a binned one is missing.
    await createPage(admin, 'docs/nowhere');
    await admin.delete('/api/pages/docs/open').expect(204);
    const after = await htmlOf(reader);
    expect(after).toContain(
      `${missing('open', 'open')} ${missing('secret', 'secret')} ${link('nowhere', 'nowhere')}`,
    );

    // The stored HTML, shared by all readers, holds no mark.
    const [row] = await t.dataSource.query('SELECT html FROM pages WHERE live_slug = ?', [
      'docs/links',
    ]);
    expect(String(row.html)).not.toContain('kb-missing');
  });

  it('marks the page answered to a write too (create and update answer the page as read)', async () => {
    const created = await createPage(admin, 'docs/fresh', { content: '[gone](/docs/gone)' });
    expect(created.html).toBe('<p><a href="/docs/gone" class="kb-missing">gone</a></p>\n');
  });
});
