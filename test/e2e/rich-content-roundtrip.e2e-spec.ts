import { strFromU8, unzipSync } from 'fflate';
import { createPage } from '../support/pages';
import { postImport, zip } from '../support/import-helpers';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

/** Every rich feature of issue 33 in one page. */
const SHOWCASE = [
  'Intro with $E = mc^2$ and a footnote[^1] :rocket:.',
  '',
  '[[toc]]',
  '',
  '## Code',
  '',
  '```ts',
  'const answer: number = 42; // why',
  '```',
  '',
  '## Math',
  '',
  '$$',
  '\\int_0^1 x\\,dx = \\frac{1}{2}',
  '$$',
  '',
  '```math',
  '\\sum_{i=1}^{n} i',
  '```',
  '',
  '## Diagrams',
  '',
  '```dot',
  'digraph { a -> b }',
  '```',
  '',
  '```mermaid',
  'graph TD; A-->B',
  '```',
  '',
  '::: details More',
  'Hidden *text*.',
  ':::',
  '',
  '## Includes',
  '',
  '![[parts/shared]]',
  '',
  '![[parts/shared#steps]]',
  '',
  '[^1]: The footnote.',
  // No trailing newline: kb's Markdown files end in one newline that is not the content's.
].join('\n');

describe('rich content round trip: Markdown export → import', () => {
  let t: TestApp;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
  });

  it('re-imports a page using every rich feature to the same Markdown and HTML', async () => {
    await createPage(admin, 'parts/shared', {
      title: 'Shared',
      content: 'Shared intro.\n\n:::excerpt steps\n1. One\n2. Two\n:::\n',
    });
    await createPage(admin, 'showcase/all', { title: 'Showcase', content: SHOWCASE });
    const before = (await admin.get('/api/pages/showcase/all').expect(200)).body;
    // Every feature is there to compare.
    for (const mark of [
      '<span class="hljs-keyword">const</span>',
      'class="katex',
      '<section class="footnotes">',
      '<nav class="kb-toc">',
      '<details><summary>More</summary>',
      '🚀',
      'class="kb-diagram kb-diagram-graphviz"',
      'Mermaid',
      '<div class="kb-include" data-include="parts/shared"><p>Shared intro.</p>',
      '<div class="kb-include" data-include="parts/shared#steps">',
    ])
      expect(before.html).toContain(mark);

    const exported = await admin.get('/api/export/pages/showcase/all').expect(200);
    expect(exported.headers['content-type']).toMatch(/^text\/markdown/);
    const markdown = exported.text;
    await admin.delete('/api/pages/showcase/all').expect(204);

    const report = await postImport(admin, {
      format: 'markdown',
      prefix: 'showcase',
      files: [{ name: 'all.md', data: Buffer.from(markdown, 'utf8') }],
    }).expect(200);
    expect(report.body.created).toEqual(['showcase/all']);
    const after = (await admin.get('/api/pages/showcase/all').expect(200)).body;
    expect(after.title).toBe('Showcase');
    expect(after.content).toBe(SHOWCASE);
    expect(Buffer.from(after.content, 'utf8').equals(Buffer.from(SHOWCASE, 'utf8'))).toBe(true);
    expect(after.html).toBe(before.html);
    // The inclusion is a link again: the included page lists the re-imported one.
    const shared = (await admin.get('/api/pages/parts/shared').expect(200)).body;
    expect(shared.backlinks).toEqual([{ slug: 'showcase/all', title: 'Showcase' }]);
  });

  it('carries page templates in the archive export and import', async () => {
    await createPage(admin, 'docs/one');
    await admin
      .post('/api/templates')
      .send({
        name: 'incident',
        title: 'Incident review',
        content: '# {{title}}\n\nImpact on {{system}}.',
        fields: [{ name: 'system', label: 'System' }],
        tags: ['incident'],
        reviewIntervalDays: 60,
      })
      .expect(201);
    const archive = await admin
      .post('/api/export/archive')
      .send({})
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const files = unzipSync(new Uint8Array(archive.body as Buffer));
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    expect(manifest.templates).toEqual([
      expect.objectContaining({ name: 'incident', title: 'Incident review', tags: ['incident'] }),
    ]);
    await admin.delete('/api/templates/incident').expect(204);
    const entries = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)]));
    const imported = await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'archive.zip', data: zip(entries) }],
    });
    expect(imported.body).toMatchObject({ unchanged: ['docs/one'] });
    const list = (await admin.get('/api/templates').expect(200)).body.items;
    expect(list).toEqual([
      expect.objectContaining({
        name: 'incident',
        content: '# {{title}}\n\nImpact on {{system}}.',
        fields: [{ name: 'system', label: 'System' }],
        reviewIntervalDays: 60,
      }),
    ]);
  });
});
