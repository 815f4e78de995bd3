import { unzipSync } from 'fflate';
import { png } from '../support/images';
import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';
import { binary, clearStoredMedia, storedMedia, upload } from '../support/media-support';

interface Item {
  id: string;
  url: string;
  filename: string;
  sha256: string;
}

/**
 * Media follow page visibility (issue 9, item 4): an item is seen by admins, its uploader and
 * whoever may see a live page referencing it. Every media route, export and print are attacked
 * from another group; refused requests leave the rows and stored files in place.
 */
describe('media follow the visibility of the pages that use them', () => {
  let t: TestApp;
  let admin: Client;
  let uploader: Client; // editor in g1, uploads everything
  let insider: Client; // another editor in g1
  let outsider: Client; // editor in g2
  let reader2: Client; // reader in g2
  let secret: Item; // image on a g1 page
  let secretFile: Item; // attachment on a g1 page
  let loose: Item; // image no page references
  let binned: Item; // image only on a binned open page
  let open: Item; // image on an open page

  const image = async (name: string, side: number): Promise<Item> =>
    (await upload(uploader, 'images', png(side, side), name).expect(201)).body as Item;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await clearStoredMedia(t);
    await t.close();
  });
  beforeEach(async () => {
    await t.reset();
    await clearStoredMedia(t);
    await createGroup(t, 'g1');
    await createGroup(t, 'g2');
    admin = await signedIn(t, 'admin');
    uploader = await signedIn(t, 'editor', { groups: ['g1'] });
    insider = await signedIn(t, 'editor', { groups: ['g1'] });
    outsider = await signedIn(t, 'editor', { groups: ['g2'] });
    reader2 = await signedIn(t, 'reader', { groups: ['g2'] });
    secret = await image('merger-zebra.png', 2);
    secretFile = (
      await upload(uploader, 'attachments', Buffer.from('a,b\n1,2\n'), 'zebra-budget.csv').expect(
        201,
      )
    ).body as Item;
    loose = await image('loose-zebra.png', 3);
    binned = await image('binned-zebra.png', 4);
    open = await image('open-chart.png', 5);
    await createPage(uploader, 'g1/plan', {
      groups: ['g1'],
      content: `# Plan\n\n![m](${secret.url})\n\n[budget](${secretFile.url})`,
    });
    await createPage(uploader, 'old/page', { content: `# Old\n\n![b](${binned.url})` });
    await admin.delete('/api/pages/old/page').expect(204);
    await createPage(uploader, 'open/page', { content: `# Open\n\n![o](${open.url})` });
  });

  const listed = async (client: Client, kind: 'images' | 'attachments'): Promise<string[]> => {
    const res = await client.get(`/api/${kind}?limit=100`).expect(200);
    return (res.body.items as Item[]).map((i) => i.filename).sort();
  };

  it('lists only the items the caller may see, never their names otherwise', async () => {
    const res = await outsider.get('/api/images?limit=100').expect(200);
    expect((res.body.items as Item[]).map((i) => i.filename)).toEqual(['open-chart.png']);
    expect(res.text).not.toContain('zebra');
    expect(await listed(outsider, 'attachments')).toEqual([]);
    // Paging walks the same visible set.
    const first = await outsider.get('/api/images?limit=1').expect(200);
    expect(first.body.nextCursor).toBeNull();

    expect(await listed(insider, 'images')).toEqual(['merger-zebra.png', 'open-chart.png']);
    expect(await listed(insider, 'attachments')).toEqual(['zebra-budget.csv']);
    const all = ['binned-zebra.png', 'loose-zebra.png', 'merger-zebra.png', 'open-chart.png'];
    expect(await listed(uploader, 'images')).toEqual(all);
    expect(await listed(admin, 'images')).toEqual(all);
    // Through a token the same rule holds.
    expect(await listed(await outsider.withToken(), 'images')).toEqual(['open-chart.png']);
  });

  it('answers 404 for the metadata of an item the caller may not see', async () => {
    for (const item of [secret, loose, binned]) {
      const res = await outsider.get(`/api/images/${item.id}`).expect(404);
      expect(res.body).toEqual(problem(404, 'image_not_found'));
      expect(res.text).not.toContain('zebra');
    }
    await outsider
      .get(`/api/attachments/${secretFile.id}`)
      .expect(404)
      .expect((r) => expect(r.body).toEqual(problem(404, 'attachment_not_found')));
    await outsider.get(`/api/images/${open.id}`).expect(200);
    await insider.get(`/api/images/${secret.id}`).expect(200);
    await insider.get(`/api/images/${loose.id}`).expect(404);
    await uploader.get(`/api/images/${loose.id}`).expect(200);
    await admin.get(`/api/images/${loose.id}`).expect(200);
  });

  it('refuses to download what the caller may not see (GET and HEAD, session and token)', async () => {
    const token = await reader2.withToken();
    for (const client of [outsider, reader2, token]) {
      for (const item of [secret, loose, binned]) {
        const res = await client.get(item.url).expect(404);
        expect(res.body).toEqual(problem(404, 'image_not_found'));
        await client.head(item.url).expect(404);
      }
      await client
        .get(secretFile.url)
        .expect(404)
        .expect((r) => expect(r.body).toEqual(problem(404, 'attachment_not_found')));
      const ok = await client.get(open.url).buffer(true).parse(binary).expect(200);
      expect(ok.body).toEqual(png(5, 5));
    }
    await insider.get(secret.url).expect(200);
    await insider.get(secretFile.url).expect(200);
    await uploader.get(loose.url).expect(200);
    await admin.get(binned.url).expect(200);
    // A reader in g1 reads the g1 page, so the image on it.
    const reader1 = await signedIn(t, 'reader', { groups: ['g1'] });
    await reader1.get(secret.url).expect(200);
    await reader1.get(loose.url).expect(404);
  });

  it('refuses to delete what the caller may not see, leaving row and file in place', async () => {
    for (const client of [outsider, insider]) {
      const res = await client.delete(`/api/images/${loose.id}`).expect(404);
      expect(res.body).toEqual(problem(404, 'image_not_found'));
    }
    await admin.get(`/api/images/${loose.id}`).expect(200);
    expect(await storedMedia(t)).toContain(loose.sha256);
    // Referenced and hidden: 404 as well, not 409 (which would confirm it exists).
    const hidden = await outsider.delete(`/api/attachments/${secretFile.id}`).expect(404);
    expect(hidden.body).toEqual(problem(404, 'attachment_not_found'));
    // The uploader may delete their unreferenced item.
    await uploader.delete(`/api/images/${loose.id}`).expect(204);
    await admin.get(`/api/images/${loose.id}`).expect(404);
    expect(await storedMedia(t)).not.toContain(loose.sha256);
  });

  it('counts an absolute image address (a pasted "Copy image address") as use by the page', async () => {
    await outsider.get(loose.url).expect(404);
    await createPage(uploader, 'open/pasted', {
      content: `# Pasted\n\n![l](https://kb.example.com:8443${loose.url})`,
    });
    const ok = await outsider.get(loose.url).buffer(true).parse(binary).expect(200);
    expect(ok.body).toEqual(png(3, 3));
    // Used: its uploader cannot delete it from under the page.
    await uploader.delete(`/api/images/${loose.id}`).expect(409);
    expect(await storedMedia(t)).toContain(loose.sha256);
  });

  it('follows the page: moving the page out of a group hides its media at once', async () => {
    await outsider.get(open.url).expect(200);
    const page = await admin.get('/api/pages/open/page').expect(200);
    await admin
      .put('/api/pages/open/page')
      .send({
        title: page.body.title,
        content: page.body.content,
        groups: ['g1'],
        baseRevision: page.body.revision,
      })
      .expect(200);
    await outsider.get(open.url).expect(404);
    expect(await listed(outsider, 'images')).toEqual([]);
    await insider.get(open.url).expect(200);
  });

  it('prints and exports only the images the caller may see', async () => {
    await createPage(uploader, 'open/letter', {
      content: '# Letter\n\n{{logo}}\n\n![o](' + open.url + ')',
      variables: { logo: 'none' },
    });
    // The attack: an override that names a hidden image, hoping print inlines its bytes.
    const doc = (
      await outsider
        .post('/export/preview/open/letter')
        .send({ variables: { logo: `![s](${secret.url}) ![l](${loose.url})` } })
        .expect(200)
    ).body.document as string;
    const inlined = (side: number) => `data:image/png;base64,${png(side, side).toString('base64')}`;
    expect(doc).toContain(inlined(5));
    expect(doc).not.toContain(inlined(2));
    expect(doc).not.toContain(inlined(3));
    // The same request by the uploader inlines them: the rule, not the route, decided.
    const own = (
      await uploader
        .post('/export/preview/open/letter')
        .send({ variables: { logo: `![s](${secret.url}) ![l](${loose.url})` } })
        .expect(200)
    ).body.document as string;
    expect(own).toContain(inlined(2));
    expect(own).toContain(inlined(3));

    const zip = await outsider
      .get('/api/export/pages/open/page')
      .buffer(true)
      .parse(binary)
      .expect(200);
    const entries = unzipSync(new Uint8Array(zip.body as Buffer));
    expect(Object.keys(entries).sort()).toEqual(['images/open-chart.png', 'page.md']);
  });
});
