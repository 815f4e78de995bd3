import { unzipSync } from 'fflate';
import { createPage } from '../support/pages';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, createUser, signedIn } from '../support/users';
import {
  binary,
  setSiteVariables,
  testPng,
  uploadAttachment,
  uploadImage,
} from '../support/export-fixtures';
import { count, postImport, zip } from '../support/import-helpers';

const SLUGS = [
  'handbook',
  'handbook/intro',
  'handbook/deep/nested/page',
  'handbook/faq',
  'releases/v1.2',
];

interface Report {
  dryRun: boolean;
  created: string[];
  replaced: string[];
  unchanged: string[];
  counts: Record<string, number>;
}

/** Every page's revision, by slug. */
async function revisions(t: TestApp): Promise<Record<string, number>> {
  const rows: { live_slug: string; revision: number }[] = await t.dataSource.query(
    'SELECT live_slug, revision FROM pages WHERE live_slug IS NOT NULL',
  );
  return Object.fromEntries(rows.map((r) => [r.live_slug, Number(r.revision)]));
}

async function exportArchive(admin: Client): Promise<Buffer> {
  const res = await admin
    .post('/api/export/archive')
    .send({})
    .buffer(true)
    .parse(binary)
    .expect(200);
  return res.body as Buffer;
}

/** The archive's Markdown files and manifest pages (without the export's own time stamps). */
function archiveContents(archive: Buffer) {
  const files = unzipSync(new Uint8Array(archive));
  const markdown = Object.fromEntries(
    Object.entries(files)
      .filter(([name]) => name.endsWith('.md'))
      .map(([name, bytes]) => [name, Buffer.from(bytes).toString('utf8')]),
  );
  const manifest = JSON.parse(Buffer.from(files['manifest.json']).toString('utf8'));
  return { markdown, pages: manifest.pages, media: manifest.media };
}

function importArchive(admin: Client, archive: Buffer, dryRun = false) {
  return postImport(admin, {
    format: 'markdown',
    files: [{ name: 'kb-archive.zip', data: archive }],
    dryRun,
  }).expect(200);
}

function expectAllUnchanged(report: Report, slugs: string[]): void {
  expect({ created: report.created, replaced: report.replaced }).toEqual({
    created: [],
    replaced: [],
  });
  expect([...report.unchanged].sort()).toEqual([...slugs].sort());
  expect(report.counts).toMatchObject({
    created: 0,
    replaced: 0,
    unchanged: slugs.length,
    skipped: 0,
    unresolvedLinks: 0,
    unresolvedImages: 0,
  });
}

/**
 * Unchanged means unchanged: re-importing kb's own archive (or the same folder twice) reports
 * every page unchanged and writes no revision, round after round.
 */
describe('export → import is a fixed point', () => {
  let t: TestApp;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t, 'admin');
    await createGroup(t, 'finance');
    await createUser(t, 'editor', { username: 'owner-alice' });
    await setSiteVariables(admin, { site_name: 'KB Inc' });
    const logo = await uploadImage(admin, testPng(1, 12), 'logo.png');
    const chart = await uploadImage(admin, testPng(2, 10), 'chart final.png');
    const manual = await uploadAttachment(admin, Buffer.from('%PDF-1.4 manual'), 'manual.pdf');
    // Written the way people write: trailing newlines, a leading blank line, CRLF line ends.
    await createPage(admin, 'handbook', {
      title: 'Handbook',
      content:
        `Welcome to {{site_name}}.\n\n![logo](${logo.url})\n\n` +
        '- [Intro](handbook/intro) (relative)\n- [FAQ](/handbook/faq#why) (absolute, anchor)\n' +
        '- [Release](/releases/v1.2)\n- [Top](#welcome)\n- [Web](https://example.com/x)\n\n',
      owner: null,
    });
    await createPage(admin, 'handbook/intro', {
      title: 'Intro for {{customer}}',
      content:
        `\nHello {{customer}}.\r\n\r\n<img src="${chart.url}" alt="chart">\r\n\r\n` +
        `Read the [manual](${manual.url}), the [FAQ](faq#Why), [up](../handbook), ` +
        `[deep](deep/nested/page) and ![logo again](${logo.url} "Logo").\r\n\r\n` +
        '```\nliteral {{customer}} [not a link](faq)\n```\r\n',
      variables: { customer: 'Default Corp' },
      icon: '📘',
      language: 'de-CH',
      tags: ['onboarding', 'hr'],
      lifecycle: 'in_review',
      owner: 'owner-alice',
      reviewIntervalDays: 90,
      groups: ['finance'],
      properties: { audience: 'staff', level: 2, internal: true, note: null },
    });
    await createPage(admin, 'handbook/deep/nested/page', {
      title: 'Deep',
      content: `| a | b |\n|---|---|\n| ![c](${chart.url}) | [back](../../intro) |\n\n\n`,
      nextReviewAt: '2031-05-01T09:30:00.000Z',
      owner: 'owner-alice',
    });
    await createPage(admin, 'handbook/faq', {
      title: 'FAQ',
      content: '## Why\n\nBecause. See [the handbook](/handbook) and [intro](./intro#hello).\n',
      tags: ['faq'],
    });
    await createPage(admin, 'releases/v1.2', {
      title: 'Release 1.2',
      content: 'Notes with a trailing # hash  \n',
      lifecycle: 'deprecated',
      deprecatedTarget: 'handbook',
      owner: null,
      verified: false,
    });
  }, 120_000);
  afterAll(() => t?.close());

  it('re-importing the archive reports every page unchanged and writes no revision, twice', async () => {
    const before = await revisions(t);
    expect(Object.keys(before).sort()).toEqual([...SLUGS].sort());
    const revisionRows = await count(t, 'page_revisions');
    const mediaRows = await count(t, 'media');
    const pagesBefore = await Promise.all(
      SLUGS.map(async (slug) => (await admin.get(`/api/pages/${slug}`).expect(200)).body),
    );

    const first = await exportArchive(admin);
    const dry = await importArchive(admin, first, true);
    expectAllUnchanged(dry.body, SLUGS);
    const round1 = await importArchive(admin, first);
    expectAllUnchanged(round1.body, SLUGS);
    expect(await revisions(t)).toEqual(before);
    expect(await count(t, 'page_revisions')).toBe(revisionRows);
    expect(await count(t, 'media')).toBe(mediaRows);

    // Round two: the wiki exports the same files again, and they import as unchanged again.
    const second = await exportArchive(admin);
    const [a, b] = [archiveContents(first), archiveContents(second)];
    expect(b.markdown).toEqual(a.markdown);
    expect(b.pages).toEqual(a.pages);
    expect(b.media).toEqual(a.media);
    const round2 = await importArchive(admin, second);
    expectAllUnchanged(round2.body, SLUGS);
    expect(await revisions(t)).toEqual(before);
    expect(await count(t, 'page_revisions')).toBe(revisionRows);
    expect(await count(t, 'media')).toBe(mediaRows);

    // Every field of every page reads as before (content byte for byte, metadata, html).
    for (const [i, slug] of SLUGS.entries()) {
      const after = (await admin.get(`/api/pages/${slug}`).expect(200)).body;
      expect(after).toEqual(pagesBefore[i]);
    }
    // The comparison compared something: links, CRLF and trailing newlines are as written.
    const intro = pagesBefore[SLUGS.indexOf('handbook/intro')];
    expect(intro.content).toContain('\r\n');
    expect(intro.content).toContain('[FAQ](faq#Why)');
    expect(pagesBefore[0].content).toMatch(/\n\n$/);
    expect(pagesBefore[0].content).toContain('[Intro](handbook/intro)');
  });

  it('a changed page in the archive is still replaced, and only that one', async () => {
    const archive = archiveContents(await exportArchive(admin));
    const files = unzipSync(new Uint8Array(await exportArchive(admin)));
    const faq = Buffer.from(files['handbook/faq.md']).toString('utf8');
    files['handbook/faq.md'] = new TextEncoder().encode(faq.replace('Because.', 'Because!'));
    const before = await revisions(t);
    const res = await importArchive(admin, zip(files));
    expect(res.body.replaced).toEqual(['handbook/faq']);
    expect(res.body.counts).toMatchObject({ replaced: 1, unchanged: SLUGS.length - 1 });
    expect(await revisions(t)).toEqual({ ...before, 'handbook/faq': before['handbook/faq'] + 1 });
    expect(archive.markdown['handbook/faq.md']).toContain('Because.');
  });

  it('only metadata changed in the manifest: the dry run predicts replaced, as the import does', async () => {
    const files = unzipSync(new Uint8Array(await exportArchive(admin)));
    const manifest = JSON.parse(Buffer.from(files['manifest.json']).toString('utf8'));
    const faq = manifest.pages.find((p: { slug: string }) => p.slug === 'handbook/faq');
    expect(faq.tags).toEqual(['faq']);
    faq.tags = ['faq', 'retagged'];
    files['manifest.json'] = new TextEncoder().encode(JSON.stringify(manifest));
    const archive = zip(files);
    const before = await revisions(t);

    const dry = await importArchive(admin, archive, true);
    expect(dry.body.dryRun).toBe(true);
    expect(dry.body.replaced).toEqual(['handbook/faq']);
    expect(await revisions(t)).toEqual(before);
    const real = await importArchive(admin, archive);
    expect(real.body.replaced).toEqual(['handbook/faq']);
    expect([...real.body.unchanged].sort()).toEqual([...dry.body.unchanged].sort());
    expect(real.body.counts).toEqual(dry.body.counts);
    expect(dry.body.counts).toMatchObject({ created: 0, replaced: 1, unchanged: SLUGS.length - 1 });
    expect(await revisions(t)).toEqual({ ...before, 'handbook/faq': before['handbook/faq'] + 1 });
    const page = (await admin.get('/api/pages/handbook/faq').expect(200)).body;
    expect([...page.tags].sort()).toEqual(['faq', 'retagged']);

    // And back: the dry run of the original metadata again predicts exactly what the write does.
    faq.tags = ['faq'];
    files['manifest.json'] = new TextEncoder().encode(JSON.stringify(manifest));
    const back = zip(files);
    const dryBack = await importArchive(admin, back, true);
    expect(dryBack.body.replaced).toEqual(['handbook/faq']);
    const realBack = await importArchive(admin, back);
    expect(realBack.body.counts).toEqual(dryBack.body.counts);
    const again = await importArchive(admin, back, true);
    expect(again.body.replaced).toEqual([]);
    expect(again.body.counts).toMatchObject({ replaced: 0, unchanged: SLUGS.length });
  });

  it('the same folder imported twice: second time every page unchanged, no revision', async () => {
    const folder = zip({
      'index.md':
        '# Guide\n\nStart with [install](setup/install.md) and ![shot](img/shot.png).\n\n',
      'setup/install.md':
        '# Install\r\n\r\nBack to [the guide](../index.md#guide), on to [run](run).\r\n',
      'setup/run.md': '# Run\n\n\nRun {{site_name}}. [Install](install.md#install)\n\n\n',
      'img/shot.png': testPng(5, 9),
    });
    const send = () =>
      postImport(admin, {
        format: 'markdown',
        prefix: 'guide',
        files: [{ name: 'guide.zip', data: folder }],
      }).expect(200);
    const first = await send();
    expect(first.body.counts).toMatchObject({ created: 3, unresolvedLinks: 0 });
    const before = await revisions(t);
    const revisionRows = await count(t, 'page_revisions');
    const mediaRows = await count(t, 'media');
    const second = await send();
    expectAllUnchanged(second.body, ['guide/index', 'guide/setup/install', 'guide/setup/run']);
    expect(await revisions(t)).toEqual(before);
    expect(await count(t, 'page_revisions')).toBe(revisionRows);
    expect(await count(t, 'media')).toBe(mediaRows);
  });
});
