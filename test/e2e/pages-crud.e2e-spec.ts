import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, signedIn } from '../support/users';
import { fieldErrors, problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { createPage, expectedPage, expectedSummary, newPage } from '../support/pages';

describe('pages: create, read, update, raw', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
    reader = await signedIn(t, 'reader');
  });

  it('creates a page: 201, Location, ETag and the whole body', async () => {
    const res = await editor
      .post('/api/pages')
      .send({
        slug: 'Guides/Getting-Started',
        title: '  Getting started ',
        content: '# Hello\n\nSee [intro](../intro#top).',
        tags: ['How-To', 'how-to', 'Setup'],
      })
      .expect(201);
    expect(res.headers.location).toBe('/api/pages/guides/getting-started');
    expect(res.headers.etag).toBe('"1"');
    expect(res.body).toEqual(
      expectedPage({
        slug: 'guides/getting-started',
        title: 'Getting started',
        content: '# Hello\n\nSee [intro](../intro#top).',
        tags: ['how-to', 'setup'],
        updatedBy: editor.user!.username,
        html: '<h1 id="hello">Hello</h1>\n<p>See <a href="/intro#top">intro</a>.</p>\n',
      }),
    );
  });
});
