import { createPage } from '../support/pages';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';
import {
  binary,
  setSiteVariables,
  sha256,
  testPng,
  uploadAttachment,
  uploadImage,
} from './export-fixtures';

interface MediaItem {
  id: string;
  kind: string;
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
  url: string;
}

async function allMedia(client: Client): Promise<MediaItem[]> {
  const items: MediaItem[] = [];
  for (const kind of ['images', 'attachments']) {
    let cursor: string | null = null;
    do {
      const res: { body: { items: MediaItem[]; nextCursor: string | null } } = await client
        .get(`/api/${kind}?limit=100${cursor ? `&cursor=${cursor}` : ''}`)
        .expect(200);
      items.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
  }
  return items;
}

async function pageOf(client: Client, slug: string): Promise<Record<string, unknown>> {
  return (await client.get(`/api/pages/${slug}`).expect(200)).body;
}

/** Export from one instance, import the archive into a fresh one with the Markdown importer. */
describe('export → import round trip', () => {
  let source: TestApp;
  let target: TestApp;
  let sourceAdmin: Client;
  let targetAdmin: Client;
  let archive: Buffer;
  const slugs = ['handbook', 'handbook/intro', 'handbook/deep/nested/page', 'releases/v1.2'];

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(), createTestApp()]);
    sourceAdmin = await signedIn(source, 'admin');
    targetAdmin = await signedIn(target, 'admin');
    await createGroup(source, 'finance');
    await setSiteVariables(sourceAdmin, { site_name: 'KB Inc' });
    const logo = await uploadImage(sourceAdmin, testPng(1, 12), 'logo.png');
    const chart = await uploadImage(sourceAdmin, testPng(2, 10), 'chart final.png');
    const manual = await uploadAttachment(
      sourceAdmin,
      Buffer.from('%PDF-1.4 manual bytes'),
      'manual.pdf',
    );
    await createPage(sourceAdmin, 'handbook', {
      title: 'Handbook',
      content: `Welcome to {{site_name}}.\n\n![logo](${logo.url})\n\n- [Intro](/handbook/intro)\n- [Release](/releases/v1.2)`,
    });
    await createPage(sourceAdmin, 'handbook/intro', {
      title: 'Intro for {{customer}}',
      content: `Hello {{customer}}.\n\n<img src="${chart.url}" alt="chart">\n\nRead the [manual](${manual.url}) and ![logo again](${logo.url} "Logo").\n\n\`\`\`\nliteral {{customer}}\n\`\`\``,
      variables: { customer: 'Default Corp' },
    });
    await createPage(sourceAdmin, 'handbook/deep/nested/page', {
      title: 'Deep',
      content: `| a | b |\n|---|---|\n| ![c](${chart.url}) | x |`,
    });
    await createPage(sourceAdmin, 'releases/v1.2', {
      title: 'Release 1.2',
      content: 'Notes with a trailing # hash',
    });
    const res = await sourceAdmin
      .post('/api/export/archive')
      .send({})
      .buffer(true)
      .parse(binary)
      .expect(200);
    archive = res.body as Buffer;
  }, 60_000);
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('recreates every page with its title and content, and every referenced image and attachment byte for byte', async () => {
    const report = await targetAdmin
      .post('/api/import')
      .field('format', 'markdown')
      .attach('files', archive, { filename: 'kb-archive.zip', contentType: 'application/zip' })
      .expect(200);
    expect([...report.body.created].sort()).toEqual([...slugs].sort());
    expect(report.body.counts).toMatchObject({
      created: slugs.length,
      replaced: 0,
      unchanged: 0,
      skipped: 0,
      unresolvedLinks: 0,
      unresolvedImages: 0,
    });

    const before = await allMedia(sourceAdmin);
    const after = await allMedia(targetAdmin);
    // Same bytes, kinds, types and names; new ids on the new instance.
    const shape = (m: MediaItem) => ({
      kind: m.kind,
      sha256: m.sha256,
      size: m.size,
      mimeType: m.mimeType,
    });
    expect(after.map(shape).sort((a, b) => a.sha256.localeCompare(b.sha256))).toEqual(
      before.map(shape).sort((a, b) => a.sha256.localeCompare(b.sha256)),
    );
    const urlMap = new Map(
      before.map((m) => [
        m.url,
        after.find((n) => n.sha256 === m.sha256 && n.kind === m.kind)!.url,
      ]),
    );
    for (const m of after) {
      const bytes = (await targetAdmin.get(m.url).buffer(true).parse(binary).expect(200))
        .body as Buffer;
      expect(sha256(bytes)).toBe(m.sha256);
    }

    for (const slug of slugs) {
      const original = await pageOf(sourceAdmin, slug);
      const imported = await pageOf(targetAdmin, slug);
      let expectedContent = original.content as string;
      for (const [from, to] of urlMap) expectedContent = expectedContent.split(from).join(to);
      expect({ slug, title: imported.title, content: imported.content }).toEqual({
        slug,
        title: original.title,
        content: expectedContent,
      });
      expect(imported.verified).toBe(true);
      expect(imported.content).not.toMatch(/\.\.\/|media\//);
    }
  });

  // Pending: the Markdown importer (src/import) does not read manifest.json yet, so page
  // metadata (tags, groups, lifecycle, owner/review, properties, variables, icon, language,
  // deprecated target, verified) and site variables are not restored. Enable once it does.
  it.todo('restores page metadata, site variables and unreferenced media from manifest.json');
});
