import { createTestApp, TestApp } from '../support/test-app';
import { png } from '../support/images';
import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { Client, createGroup, signedIn } from '../support/users';
import { clearStoredMedia, upload } from '../support/media-support';

/**
 * A refused delete (409 media_in_use) must not name pages the caller cannot see: it lists the
 * visible ones and only counts the others (DESIGN B: never reveal existence).
 */
describe('media deletion never reveals pages the caller cannot see', () => {
  let t: TestApp;
  let admin: Client;
  let ed: Client;

  const SECRET_SLUG = 'sec/withimg';
  const SECRET_TITLE = 'Merger plan Zebra';

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await clearStoredMedia(t);
    await createGroup(t, 'g1');
    admin = await signedIn(t, 'admin');
    ed = await signedIn(t, 'editor');
  });

  /** The raw response text, so a slug or title anywhere in it (detail, extensions) is caught. */
  const expectNoTrace = (text: string) => {
    expect(text).not.toContain('sec/withimg');
    expect(text).not.toContain('withimg');
    expect(text).not.toContain(SECRET_TITLE);
  };

  const secretPageWith = (url: string) =>
    createPage(admin, SECRET_SLUG, {
      title: SECRET_TITLE,
      groups: ['g1'],
      content: `# ${SECRET_TITLE}\n\n![chart](${url})`,
    });

  it('refuses an editor outside the page’s groups without naming the page (the audit case)', async () => {
    const image = await upload(ed, 'images', png(3, 3), 'chart.png').expect(201);
    await secretPageWith(image.body.url);
    await ed.get(`/api/pages/${SECRET_SLUG}`).expect(404);

    const refused = await ed.delete(`/api/images/${image.body.id}`).expect(409);
    expect(refused.body).toEqual(problem(409, 'media_in_use', { slugs: [], hiddenReferences: 1 }));
    expectNoTrace(refused.text);
    await ed.get(image.body.url).expect(200);

    // The same through a token, and for attachments.
    const token = await ed.withToken();
    const again = await token.delete(`/api/images/${image.body.id}`).expect(409);
    expectNoTrace(again.text);
    const file = await upload(ed, 'attachments', Buffer.from('a,b\n1,2\n'), 'data.csv').expect(201);
    await createPage(admin, 'sec/withfile', {
      groups: ['g1'],
      title: 'Hidden data',
      content: `# Hidden data\n\n[data](${file.body.url})`,
    });
    const attachment = await ed.delete(`/api/attachments/${file.body.id}`).expect(409);
    expect(attachment.body).toEqual(
      problem(409, 'media_in_use', { slugs: [], hiddenReferences: 1 }),
    );
    expect(attachment.text).not.toContain('withfile');
    expect(attachment.text).not.toContain('Hidden data');
  });

  it('names the pages the caller can see and counts the rest', async () => {
    const insider = await signedIn(t, 'editor', { groups: ['g1'] });
    const image = await upload(ed, 'images', png(4, 4), 'chart.png').expect(201);
    await secretPageWith(image.body.url);
    await createPage(ed, 'open/report', { content: `# Report\n\n![c](${image.body.url})` });

    const outsider = await ed.delete(`/api/images/${image.body.id}`).expect(409);
    expect(outsider.body).toEqual(
      problem(409, 'media_in_use', { slugs: ['open/report'], hiddenReferences: 1 }),
    );
    expectNoTrace(outsider.text);

    await insider
      .delete(`/api/images/${image.body.id}`)
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(409, 'media_in_use', {
            slugs: ['open/report', SECRET_SLUG],
            hiddenReferences: 0,
          }),
        ),
      );
    await admin
      .delete(`/api/images/${image.body.id}`)
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(409, 'media_in_use', {
            slugs: ['open/report', SECRET_SLUG],
            hiddenReferences: 0,
          }),
        ),
      );
  });

  it('names binned pages only to admins (only they can see the bin)', async () => {
    const insider = await signedIn(t, 'editor', { groups: ['g1'] });
    const image = await upload(ed, 'images', png(5, 5), 'chart.png').expect(201);
    await secretPageWith(image.body.url);
    await createPage(ed, 'open/old', { content: `# Old\n\n![c](${image.body.url})` });
    await admin.delete(`/api/pages/${SECRET_SLUG}`).expect(204);
    await admin.delete('/api/pages/open/old').expect(204);

    // The uploader still sees the item; the insider no longer does (no live page uses it).
    const refused = await ed.delete(`/api/images/${image.body.id}`).expect(409);
    expect(refused.body).toEqual(problem(409, 'media_in_use', { slugs: [], hiddenReferences: 2 }));
    expectNoTrace(refused.text);
    expect(refused.text).not.toContain('open/old');
    const unseen = await insider.delete(`/api/images/${image.body.id}`).expect(404);
    expect(unseen.body).toEqual(problem(404, 'image_not_found'));
    await admin
      .delete(`/api/images/${image.body.id}`)
      .expect(409)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(409, 'media_in_use', { slugs: ['open/old', SECRET_SLUG], hiddenReferences: 0 }),
        ),
      );
    // An admin's token narrowed to editor acts as an editor: no bin, and (not the uploader)
    // no sight of an item only binned pages use.
    const narrowed = await admin.withToken({ scope: 'editor' });
    const scoped = await narrowed.delete(`/api/images/${image.body.id}`).expect(404);
    expect(scoped.body).toEqual(problem(404, 'image_not_found'));
    await ed.get(image.body.url).expect(200);
  });
});
