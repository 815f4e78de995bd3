import { createTestApp, TestApp } from '../support/test-app';
import { png } from '../support/images';
import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { anonymous, Client, signedIn } from '../support/users';
import { clearStoredMedia, upload } from '../support/media-support';

describe('media route policies', () => {
  let t: TestApp;
  let editor: Client;
  let reader: Client;
  let image: { id: string; url: string };
  let attachment: { id: string; url: string };

  beforeAll(async () => {
    t = await createTestApp();
    editor = await signedIn(t, 'editor');
    reader = await signedIn(t, 'reader');
    image = (await upload(editor, 'images', png(2, 2), 'a.png').expect(201)).body;
    attachment = (await upload(editor, 'attachments', Buffer.from('x'), 'a.txt').expect(201)).body;
    // On a page every reader sees, so readers may download both (media-groups.e2e-spec).
    await createPage(editor, 'open/media', {
      content: `![a](${image.url}) [a](${attachment.url})`,
    });
  });
  afterAll(async () => {
    await clearStoredMedia(t);
    await t.close();
  });

  const editorRoutes = (): [string, string][] => [
    ['post', '/api/images'],
    ['post', '/api/attachments'],
    ['get', '/api/images'],
    ['get', '/api/attachments'],
    ['get', `/api/images/${image.id}`],
    ['get', `/api/attachments/${attachment.id}`],
    ['delete', `/api/images/${image.id}`],
    ['delete', `/api/attachments/${attachment.id}`],
  ];
  const contentRoutes = (): string[] => [image.url, attachment.url];

  it('answers 401 to anonymous callers on every route', async () => {
    for (const [method, path] of [
      ...editorRoutes(),
      ...contentRoutes().map((p) => ['get', p] as [string, string]),
    ]) {
      const res = await anonymous(t).request(method as 'get', path);
      expect({ method, path, status: res.status, body: res.body }).toEqual({
        method,
        path,
        status: 401,
        body: problem(401, 'unauthenticated'),
      });
    }
  });

  it('answers 403 to readers (session or token) on the editor routes', async () => {
    const token = await reader.withToken();
    for (const client of [reader, token]) {
      for (const [method, path] of editorRoutes()) {
        const res = await client.request(method as 'get', path);
        expect({ method, path, status: res.status, body: res.body }).toEqual({
          method,
          path,
          status: 403,
          body: problem(403, 'insufficient_role'),
        });
      }
    }
  });

  it('answers 403 to an editor token scoped down to reader', async () => {
    const scoped = await editor.withToken({ scope: 'reader' });
    await upload(scoped, 'images', png(1, 1), 'b.png').expect(403);
    await scoped.get(image.url).expect(200);
  });

  it('lets readers download by session and token', async () => {
    const token = await reader.withToken();
    for (const client of [reader, token])
      for (const url of contentRoutes()) await client.get(url).expect(200);
  });
});
