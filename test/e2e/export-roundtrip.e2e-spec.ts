import { createPage } from '../support/pages';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, createUser, signedIn } from '../support/users';
import {
  binary,
  setSiteVariables,
  sha256,
  testPng,
  uploadAttachment,
  uploadImage,
} from '../support/export-fixtures';

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
  let importReport: { created: string[]; counts: Record<string, number> };
  const slugs = ['handbook', 'handbook/intro', 'handbook/deep/nested/page', 'releases/v1.2'];

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(), createTestApp()]);
    sourceAdmin = await signedIn(source, 'admin');
    targetAdmin = await signedIn(target, 'admin');
    // The same group and owner exist on both instances (metadata refers to them by name).
    for (const app of [source, target]) {
      await createGroup(app, 'finance');
      await createUser(app, 'editor', { username: 'owner-alice' });
    }
    await setSiteVariables(sourceAdmin, { site_name: 'KB Inc' });
    const logo = await uploadImage(sourceAdmin, testPng(1, 12), 'logo.png');
    const chart = await uploadImage(sourceAdmin, testPng(2, 10), 'chart final.png');
    const manual = await uploadAttachment(
      sourceAdmin,
      Buffer.from('%PDF-1.4 manual bytes'),
      'manual.pdf',
    );
    await uploadAttachment(sourceAdmin, Buffer.from('a,b\n1,2\n'), 'unreferenced.csv');
    await createPage(sourceAdmin, 'handbook', {
      title: 'Handbook',
      content: `Welcome to {{site_name}}.\n\n![logo](${logo.url})\n\n- [Intro](/handbook/intro)\n- [Release](/releases/v1.2)`,
      // Owned by nobody (the admin who created it is no user of the target instance).
      owner: null,
      verified: true,
    });
    await createPage(sourceAdmin, 'handbook/intro', {
      title: 'Intro for {{customer}}',
      content: `Hello {{customer}}.\n\n<img src="${chart.url}" alt="chart">\n\nRead the [manual](${manual.url}) and ![logo again](${logo.url} "Logo").\n\n\`\`\`\nliteral {{customer}}\n\`\`\``,
      variables: { customer: 'Default Corp' },
      icon: '📘',
      language: 'de-CH',
      tags: ['onboarding', 'hr'],
      lifecycle: 'in_review',
      owner: 'owner-alice',
      reviewIntervalDays: 90,
      groups: ['finance'],
      properties: { audience: 'staff', level: 2, internal: true, note: null },
      verified: true,
    });
    await createPage(sourceAdmin, 'handbook/deep/nested/page', {
      title: 'Deep',
      content: `| a | b |\n|---|---|\n| ![c](${chart.url}) | x |`,
      owner: null,
      verified: true,
    });
    await createPage(sourceAdmin, 'releases/v1.2', {
      title: 'Release 1.2',
      content: 'Notes with a trailing # hash',
      lifecycle: 'deprecated',
      deprecatedTarget: 'handbook',
      owner: null,
      // Unverified on purpose: the archive restores `verified` as exported.
      verified: false,
    });
    const res = await sourceAdmin
      .post('/api/export/archive')
      .send({})
      .buffer(true)
      .parse(binary)
      .expect(200);
    archive = res.body as Buffer;
    importReport = (
      await targetAdmin
        .post('/api/import')
        .field('format', 'markdown')
        .attach('files', archive, { filename: 'kb-archive.zip', contentType: 'application/zip' })
        .expect(200)
    ).body;
  }, 60_000);
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('creates every page and resolves every reference', () => {
    expect([...importReport.created].sort()).toEqual([...slugs].sort());
    expect(importReport.counts).toMatchObject({
      created: slugs.length,
      replaced: 0,
      unchanged: 0,
      skipped: 0,
      unresolvedLinks: 0,
      unresolvedImages: 0,
    });
  });

  it('recreates every image and attachment (referenced or not) with its bytes, kind, type and name', async () => {
    const shape = (m: MediaItem) => ({
      kind: m.kind,
      filename: m.filename,
      sha256: m.sha256,
      size: m.size,
      mimeType: m.mimeType,
    });
    const byHash = (a: { sha256: string }, b: { sha256: string }) =>
      a.sha256.localeCompare(b.sha256);
    const after = await allMedia(targetAdmin);
    expect(after.map(shape).sort(byHash)).toEqual(
      (await allMedia(sourceAdmin)).map(shape).sort(byHash),
    );
    expect(after.map((m) => m.filename).sort()).toEqual([
      'chart final.png',
      'logo.png',
      'manual.pdf',
      'unreferenced.csv',
    ]);
    for (const m of after) {
      const bytes = (await targetAdmin.get(m.url).buffer(true).parse(binary).expect(200))
        .body as Buffer;
      expect(sha256(bytes)).toBe(m.sha256);
    }
  });

  it('recreates titles and content exactly, with the media references pointing at the new items', async () => {
    const before = await allMedia(sourceAdmin);
    const after = await allMedia(targetAdmin);
    const urlMap = new Map(
      before.map((m) => [
        m.url,
        after.find((n) => n.sha256 === m.sha256 && n.kind === m.kind)!.url,
      ]),
    );
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
      expect(imported.content).not.toMatch(/\.\.\/|media\//);
    }
  });

  it('restores the metadata of every page from manifest.json', async () => {
    const metadata = (page: Record<string, unknown>) => {
      const {
        slug,
        title,
        icon,
        language,
        tags,
        lifecycle,
        owner,
        reviewIntervalDays,
        nextReviewAt,
        groups,
        deprecatedTarget,
        properties,
        variables,
        verified,
      } = page;
      return {
        slug,
        title,
        icon,
        language,
        tags,
        lifecycle,
        owner,
        reviewIntervalDays,
        nextReviewAt,
        groups,
        deprecatedTarget,
        properties,
        variables,
        verified,
      };
    };
    for (const slug of slugs) {
      expect(metadata(await pageOf(targetAdmin, slug))).toEqual(
        metadata(await pageOf(sourceAdmin, slug)),
      );
    }
    // Spot checks that the comparison compared something.
    expect(await pageOf(targetAdmin, 'handbook/intro')).toMatchObject({
      icon: '📘',
      lifecycle: 'in_review',
      owner: 'owner-alice',
      groups: ['finance'],
      variables: { customer: 'Default Corp' },
      properties: { audience: 'staff', level: 2, internal: true, note: null },
    });
    expect(await pageOf(targetAdmin, 'releases/v1.2')).toMatchObject({
      lifecycle: 'deprecated',
      deprecatedTarget: 'handbook',
      verified: false,
    });
  });

  it('restores the site-wide variables from manifest.json, so pages render as before', async () => {
    const { unzipSync } = await import('fflate');
    const manifest = JSON.parse(
      Buffer.from(unzipSync(new Uint8Array(archive))['manifest.json']).toString('utf8'),
    );
    expect(manifest.siteVariables).toEqual({ site_name: 'KB Inc' });
    expect((await targetAdmin.get('/api/variables').expect(200)).body).toEqual(
      (await sourceAdmin.get('/api/variables').expect(200)).body,
    );
    expect((await pageOf(targetAdmin, 'handbook')).html).toContain('Welcome to KB Inc.');
  });
});
