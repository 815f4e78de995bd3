import { EventEmitter2 } from '@nestjs/event-emitter';
import { IMPORT_FINISHED, ImportFinishedEvent } from '../../src/common/events/domain-events';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';
import { binary, filesUnder, sha256, storedMedia } from '../support/media-support';
import {
  count,
  fixture,
  MEDIA_URL,
  pageRow,
  postImport,
  readTree,
  zip,
} from '../support/import-helpers';

const UUID = '[0-9a-f-]{36}';

describe('POST /api/import: formats', () => {
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

  describe('markdown', () => {
    it('imports a ZIP tree: titles, path slugs under a prefix, images stored, links rewritten, front matter kept', async () => {
      const events: ImportFinishedEvent[] = [];
      const listener = (e: ImportFinishedEvent) => events.push(e);
      t.get(EventEmitter2).on(IMPORT_FINISHED, listener);
      const res = await postImport(admin, {
        format: 'markdown',
        prefix: '/Docs/',
        files: [{ name: 'docs.zip', data: zip(readTree('markdown')) }],
      }).expect(200);
      t.get(EventEmitter2).off(IMPORT_FINISHED, listener);

      const image = res.body.images[0];
      expect(res.body).toEqual({
        format: 'markdown',
        dryRun: false,
        pages: [
          { path: 'README.md', slug: 'docs/readme', outcome: 'created' },
          { path: 'guide/intro.md', slug: 'docs/guide/intro', outcome: 'created' },
          { path: 'reference/api.md', slug: 'docs/reference/api', outcome: 'created' },
        ],
        created: ['docs/readme', 'docs/guide/intro', 'docs/reference/api'],
        replaced: [],
        unchanged: [],
        binned: [],
        skipped: [],
        images: [
          {
            path: 'images/logo.png',
            id: expect.stringMatching(new RegExp(`^${UUID}$`)),
            url: expect.stringMatching(MEDIA_URL),
          },
        ],
        attachments: [],
        unresolvedLinks: [{ path: 'guide/intro.md', target: 'missing.md' }],
        unresolvedImages: [],
        refusedFiles: [],
        storedAsAttachment: [],
        siteVariables: [],
        ignored: [],
        macros: [],
        counts: {
          created: 3,
          replaced: 0,
          unchanged: 0,
          binned: 0,
          skipped: 0,
          images: 1,
          attachments: 0,
          unresolvedLinks: 1,
          unresolvedImages: 0,
          refusedFiles: 0,
          storedAsAttachment: 0,
          siteVariables: 0,
          ignored: 0,
          macros: 0,
        },
      });
      expect(image.url).toBe(`/api/images/${image.id}/content`);
      expect(events).toEqual([
        { userId: admin.user!.id, format: 'markdown', dryRun: false, counts: res.body.counts },
      ]);

      const intro = await admin.get('/api/pages/docs/guide/intro').expect(200);
      expect(intro.body).toMatchObject({
        slug: 'docs/guide/intro',
        title: 'Introduction',
        tags: ['guide', 'start'],
        properties: { owner: 'docs-team' },
        verified: true,
        content: [
          'Welcome. Read the [API reference](/docs/reference/api#auth) next.',
          '',
          `![Logo](${image.url})`,
          '',
          `Also see the [same logo](${image.url}) and a [missing page](missing.md).`,
        ].join('\n'),
      });
      expect((await pageRow(t, 'docs/reference/api'))!.content).toBe(
        'Back to the [introduction](/docs/guide/intro).\n\n## Auth\n\nSend a bearer token.',
      );
      const bytes = await admin.get(image.url).buffer(true).parse(binary).expect(200);
      expect(Buffer.compare(bytes.body as Buffer, fixture('markdown/images/logo.png'))).toBe(0);
    });

    it('imports loose .md files by their file names', async () => {
      const res = await postImport(admin, {
        format: 'markdown',
        files: [
          { name: 'Getting Started.md', data: '# Getting started\n\nHi' },
          { name: 'notes.markdown', data: '\ufeffNotes\n=====\n\ntext' },
        ],
      }).expect(200);
      expect(res.body.created).toEqual(['getting-started', 'notes']);
      expect(await pageRow(t, 'notes')).toEqual({
        title: 'Notes',
        content: 'text',
        revision: 1,
        verified: true,
      });
    });
    it('stores SVG (and other non-PNG/JPEG/GIF/WebP) images as attachments, served as downloads', async () => {
      const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
      const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(40, 1)]);
      const files = {
        'docs/page.md':
          '# Diagrams\n\n![overview](img/overview.svg)\n\n![raster](img/old.bmp)\n\n![logo](img/logo.png)',
        'docs/img/overview.svg': svg,
        'docs/img/old.bmp': bmp,
        'docs/img/logo.png': fixture('markdown/images/logo.png'),
      };
      const dry = await postImport(admin, {
        format: 'markdown',
        dryRun: true,
        files: [{ name: 'd.zip', data: zip(files) }],
      }).expect(200);
      expect(dry.body.storedAsAttachment).toEqual([
        { path: 'docs/img/overview.svg', id: null, url: null, reason: expect.any(String) },
        { path: 'docs/img/old.bmp', id: null, url: null, reason: expect.any(String) },
      ]);
      expect(await count(t, 'media')).toBe(0);

      const res = await postImport(admin, {
        format: 'markdown',
        files: [{ name: 'd.zip', data: zip(files) }],
      }).expect(200);
      const [svgItem, bmpItem] = res.body.storedAsAttachment;
      expect(res.body).toMatchObject({
        created: ['docs/page'],
        images: [{ path: 'docs/img/logo.png', url: expect.stringMatching(MEDIA_URL) }],
        attachments: [
          { path: 'docs/img/overview.svg', id: svgItem.id, url: svgItem.url },
          { path: 'docs/img/old.bmp', id: bmpItem.id, url: bmpItem.url },
        ],
        storedAsAttachment: [
          {
            path: 'docs/img/overview.svg',
            id: expect.stringMatching(UUID),
            url: `/api/attachments/${svgItem.id}/content`,
            reason: expect.stringContaining('attachment'),
          },
          {
            path: 'docs/img/old.bmp',
            id: expect.stringMatching(UUID),
            url: `/api/attachments/${bmpItem.id}/content`,
            reason: expect.stringContaining('attachment'),
          },
        ],
        unresolvedImages: [],
        refusedFiles: [],
        counts: { images: 1, attachments: 2, storedAsAttachment: 2, unresolvedImages: 0 },
      });
      const page = await pageRow(t, 'docs/page');
      expect(page!.content).toBe(
        `![overview](${svgItem.url})\n\n![raster](${bmpItem.url})\n\n![logo](${res.body.images[0].url})`,
      );
      // The SVG is never served as an image: a sandboxed download, as stored.
      const served = await admin.get(svgItem.url).buffer(true).parse(binary).expect(200);
      expect(served.headers['content-disposition']).toMatch(/^attachment;/);
      expect(served.headers['content-type']).not.toMatch(/svg|html|xml/);
      expect(served.headers['content-security-policy']).toContain('sandbox');
      expect((served.body as Buffer).toString()).toBe(svg);
    });
  });

  describe('wikijs', () => {
    it('imports storage files (front matter, callouts, size suffixes, absolute links) and every JSON shape', async () => {
      const res = await postImport(admin, {
        format: 'wikijs',
        files: [
          { name: 'storage.zip', data: zip(readTree('wikijs/storage')) },
          { name: 'page.json', data: fixture('wikijs/json/page.json') },
          { name: 'graphql-single.json', data: fixture('wikijs/json/graphql-single.json') },
          { name: 'graphql-list.json', data: fixture('wikijs/json/graphql-list.json') },
          { name: 'export.json', data: fixture('wikijs/json/export.json') },
        ],
      }).expect(200);
      const image = res.body.images[0];
      expect(res.body).toMatchObject({
        created: [
          'install/docker',
          'install',
          'single/page',
          'gql/single',
          'gql/listed',
          'exported/html',
          'exported/markdown',
        ],
        skipped: [],
        images: [
          {
            path: 'assets/logo.png',
            id: expect.any(String),
            url: expect.stringMatching(MEDIA_URL),
          },
        ],
        unresolvedLinks: [{ path: 'install.md', target: '/install/nowhere' }],
        unresolvedImages: [],
      });
      const install = await admin.get('/api/pages/install').expect(200);
      expect(install.body).toMatchObject({
        title: 'Install: Overview',
        tags: ['setup', 'install'],
        properties: { description: 'How to install', published: true, editor: 'markdown' },
        content: [
          '> [!NOTE]',
          '> Check the [Docker guide](/install/docker) first.',
          '',
          `![Logo](${image.url})`,
          '',
          '- [Missing](/install/nowhere)',
        ].join('\n'),
      });
      expect(await pageRow(t, 'install/docker')).toMatchObject({
        title: 'Docker',
        content: '# Using the image\n\nBack to [the overview](/install).',
      });
      expect(await pageRow(t, 'gql/single')).toMatchObject({
        title: 'GraphQL Single',
        content: 'From pages.single, see [the list page](/gql/listed).',
      });
      expect(await pageRow(t, 'exported/html')).toMatchObject({
        title: 'Exported HTML',
        content: '## Section\n\nSome _HTML_ content.',
      });
      expect(await pageRow(t, 'exported/markdown')).toMatchObject({
        content: 'Links to [the HTML page](/exported/html).',
      });
      expect((await admin.get('/api/pages/single/page').expect(200)).body).toMatchObject({
        tags: ['one'],
        properties: { description: 'one object' },
      });
    });

    it('imports ZIPs of JSON files', async () => {
      const data = zip({
        'pages/page.json': fixture('wikijs/json/page.json'),
        'pages/export.json': fixture('wikijs/json/export.json'),
      });
      const res = await postImport(admin, {
        format: 'wikijs',
        prefix: 'wiki',
        files: [{ name: 'json.zip', data }],
      }).expect(200);
      expect(res.body.created).toEqual([
        'wiki/single/page',
        'wiki/exported/html',
        'wiki/exported/markdown',
      ]);
      expect(await pageRow(t, 'wiki/exported/markdown')).toMatchObject({
        content: 'Links to [the HTML page](/wiki/exported/html).',
      });
    });

    it('names a JSON shape it does not accept (422, nothing written)', async () => {
      const res = await postImport(admin, {
        format: 'wikijs',
        files: [
          { name: 'unknown-shape.json', data: fixture('wikijs/unknown-shape.json') },
          { name: 'page.json', data: fixture('wikijs/json/page.json') },
        ],
      }).expect(422);
      expect(res.body).toEqual(
        problem(422, 'validation_failed', {
          errors: [
            {
              field: 'files[unknown-shape.json]',
              code: 'wikijs_unknown_shape',
              message: expect.stringContaining('unknown-shape.json'),
            },
          ],
        }),
      );
      expect(await count(t, 'pages')).toBe(0);
    });
  });

  describe('confluence', () => {
    it('imports a space export ZIP (hierarchy, panels, code, tables, attachments) and a loose page', async () => {
      const res = await postImport(admin, {
        format: 'confluence',
        files: [
          {
            name: 'Confluence-space-export.html.zip',
            data: zip(readTree('confluence/space'), 'TEAM/'),
          },
          { name: 'Loose-Page_300.html', data: fixture('confluence/loose/Loose-Page_300.html') },
        ],
      }).expect(200);
      expect(res.body).toMatchObject({
        created: ['home/child-page', 'home', 'loose-page'],
        skipped: [],
        images: [
          {
            path: 'TEAM/attachments/100/200.png',
            id: expect.any(String),
            url: expect.stringMatching(MEDIA_URL),
          },
        ],
        attachments: [
          {
            path: 'TEAM/attachments/100/201.txt',
            id: expect.any(String),
            url: expect.stringMatching(MEDIA_URL),
          },
        ],
        unresolvedLinks: [
          { path: 'TEAM/Home_100.html', target: '/pages/viewpage.action?pageId=999' },
        ],
      });
      const imageUrl = res.body.images[0].url;
      const attachmentUrl = res.body.attachments[0].url;
      const home = await pageRow(t, 'home');
      expect(home!.title).toBe('Home');
      expect(home!.content).toBe(
        [
          '## Setup',
          '',
          'See the [child page](/home/child-page) and [an old page](/pages/viewpage.action?pageId=999).',
          '',
          '**Install**',
          '',
          '```bash',
          'npm install && npm start',
          '```',
          '',
          '> [!TIP]',
          '> Use the LTS release.',
          '',
          '| Key | Value |',
          '| --- | --- |',
          '| port | 3000 |',
          '',
          '<table><tbody><tr><th colspan="2">Merged</th></tr><tr><td>a</td><td>b</td></tr></tbody></table>',
          '',
          `![logo.png](${imageUrl})`,
          '',
          '## Attachments',
          '',
          `- [notes.txt](${attachmentUrl})`,
        ].join('\n'),
      );
      expect(await pageRow(t, 'home/child-page')).toMatchObject({
        title: 'Child Page',
        content: 'Back [home](/home).\n\n> [!CAUTION]\n> Do not run as root.',
      });
      expect(await pageRow(t, 'loose-page')).toMatchObject({
        title: 'Loose Page',
        content: 'A loose page with **bold** text.',
      });
      const attachment = await admin.get(attachmentUrl).buffer(true).parse(binary).expect(200);
      expect((attachment.body as Buffer).toString()).toBe('Release notes attached.\n');
    });
  });

  describe('strict, skipInvalid, dryRun', () => {
    const tree = () => ({
      ...readTree('markdown'),
      'notitle.md': fixture('notitle.md'),
      'latin1.md': Buffer.from('# Caf\xe9\n', 'latin1'),
    });

    it('strict: one invalid document refuses the request, naming every bad file; nothing is written', async () => {
      const res = await postImport(admin, {
        format: 'markdown',
        files: [{ name: 'docs.zip', data: zip(tree()) }],
      }).expect(422);
      expect(res.body).toEqual(
        problem(422, 'validation_failed', {
          errors: [
            {
              field: 'files[notitle.md]',
              code: 'missing_title',
              message: '"notitle.md" has no level-one heading ("# Title").',
            },
            {
              field: 'files[latin1.md]',
              code: 'invalid_encoding',
              message: '"latin1.md" is not UTF-8 text.',
            },
          ],
        }),
      );
      expect(await count(t, 'pages')).toBe(0);
      expect(await count(t, 'media')).toBe(0);
    });

    it('skipInvalid imports the rest and names what it skipped', async () => {
      const res = await postImport(admin, {
        format: 'markdown',
        skipInvalid: true,
        files: [{ name: 'docs.zip', data: zip(tree()) }],
      }).expect(200);
      expect(res.body.created).toEqual(['readme', 'guide/intro', 'reference/api']);
      expect(res.body.skipped).toEqual([
        {
          path: 'notitle.md',
          code: 'missing_title',
          reason: '"notitle.md" has no level-one heading ("# Title").',
        },
        { path: 'latin1.md', code: 'invalid_encoding', reason: '"latin1.md" is not UTF-8 text.' },
      ]);
      expect(res.body.counts).toMatchObject({ created: 3, skipped: 2, images: 1 });
      expect(await count(t, 'pages')).toBe(3);
    });

    it('dryRun reports the same and writes nothing', async () => {
      await admin
        .post('/api/pages')
        .send({
          slug: 'readme',
          title: 'Read Me',
          content: 'Start with [the guide](/guide/intro).',
        })
        .expect(201);
      const before = await count(t, 'page_revisions');
      // The page exists unverified and its title and content are the document's: the import
      // would only mark it verified, which is a change, so the dry run predicts `replaced`.
      const res = await postImport(admin, {
        format: 'markdown',
        dryRun: true,
        skipInvalid: true,
        files: [{ name: 'docs.zip', data: zip(tree()) }],
      }).expect(200);
      expect(res.body).toEqual({
        format: 'markdown',
        dryRun: true,
        pages: expect.arrayContaining([
          { path: 'README.md', slug: 'readme', outcome: 'replaced' },
          { path: 'guide/intro.md', slug: 'guide/intro', outcome: 'created' },
          { path: 'reference/api.md', slug: 'reference/api', outcome: 'created' },
        ]),
        created: ['guide/intro', 'reference/api'],
        replaced: ['readme'],
        unchanged: [],
        binned: [],
        skipped: [
          expect.objectContaining({ path: 'notitle.md' }),
          expect.objectContaining({ path: 'latin1.md' }),
        ],
        images: [{ path: 'images/logo.png', id: null, url: null }],
        attachments: [],
        unresolvedLinks: [{ path: 'guide/intro.md', target: 'missing.md' }],
        unresolvedImages: [],
        refusedFiles: [],
        storedAsAttachment: [],
        siteVariables: [],
        ignored: [],
        macros: [],
        counts: {
          created: 2,
          replaced: 1,
          unchanged: 0,
          binned: 0,
          skipped: 2,
          images: 1,
          attachments: 0,
          unresolvedLinks: 1,
          unresolvedImages: 0,
          refusedFiles: 0,
          storedAsAttachment: 0,
          siteVariables: 0,
          ignored: 0,
          macros: 0,
        },
      });
      expect(await count(t, 'pages')).toBe(1);
      expect(await count(t, 'page_revisions')).toBe(before);
      expect(await count(t, 'media')).toBe(0);
      // The import itself does what the dry run said.
      const real = await postImport(admin, {
        format: 'markdown',
        skipInvalid: true,
        files: [{ name: 'docs.zip', data: zip(tree()) }],
      }).expect(200);
      expect(real.body.replaced).toEqual(['readme']);
      expect(real.body.counts).toEqual(res.body.counts);
      const readme = (await admin.get('/api/pages/readme').expect(200)).body;
      expect(readme.verified).toBe(true);
    });

    it('a document the page rules refuse rolls everything back, stored images included', async () => {
      // Bytes no other test stores, so the blob on disk is this import's own.
      const unique = Buffer.concat([
        fixture('markdown/images/logo.png'),
        Buffer.from(`rollback-${Date.now()}`),
      ]);
      const files = {
        'images/unique.png': unique,
        'good.md': '# Good\n\n![u](images/unique.png)',
        'bad.md': `---\ntags: [${'x'.repeat(80)}]\n---\n# Bad`,
      };
      const res = await postImport(admin, {
        format: 'markdown',
        files: [{ name: 'docs.zip', data: zip(files) }],
      }).expect(422);
      expect(res.body).toEqual(
        problem(422, 'validation_failed', {
          errors: [
            {
              field: 'files[bad.md]',
              code: expect.any(String),
              message: expect.stringContaining('tags'),
            },
          ],
        }),
      );
      expect(await count(t, 'pages')).toBe(0);
      expect(await count(t, 'media')).toBe(0);
      expect(await storedMedia(t)).not.toContain(sha256(unique));
      expect(filesUnder(t, 'tmp')).toEqual([]);
    });
  });

  describe('replacing existing pages', () => {
    it('keeps metadata, writes a revision only when the content changed', async () => {
      await createGroup(t, 'team');
      const created = await admin
        .post('/api/pages')
        .send({
          slug: 'guide/intro',
          title: 'Old intro',
          content: 'old text',
          icon: 'book',
          language: 'de',
          tags: ['kept'],
          lifecycle: 'published',
          groups: ['team'],
          properties: { team: 'docs' },
          reviewIntervalDays: 30,
          owner: admin.user!.username,
        })
        .expect(201);
      const files = [{ name: 'docs.zip', data: zip(readTree('markdown')) }];
      const first = await postImport(admin, { format: 'markdown', files }).expect(200);
      expect(first.body).toMatchObject({
        created: ['readme', 'reference/api'],
        replaced: ['guide/intro'],
        unchanged: [],
      });
      const page = await admin.get('/api/pages/guide/intro').expect(200);
      expect(page.body).toMatchObject({
        title: 'Introduction',
        icon: 'book',
        language: 'de',
        tags: ['kept'],
        lifecycle: 'published',
        groups: ['team'],
        properties: { team: 'docs' },
        reviewIntervalDays: 30,
        revision: created.body.revision + 1,
        verified: true,
      });
      expect(page.body.content).toContain('Welcome.');

      const second = await postImport(admin, { format: 'markdown', files }).expect(200);
      expect(second.body).toMatchObject({
        created: [],
        replaced: [],
        unchanged: ['readme', 'guide/intro', 'reference/api'],
      });
      expect((await pageRow(t, 'guide/intro'))!.revision).toBe(created.body.revision + 1);
    });
  });

  describe('who may import', () => {
    const body = { format: 'markdown', files: [{ name: 'a.md', data: '# A' }] };

    it('admins with a bearer token (CI pipelines)', async () => {
      const bearer = await admin.withToken();
      const res = await postImport(bearer, body).expect(200);
      expect(res.body.created).toEqual(['a']);
    });

    it('refuses editors and readers (403) and anonymous callers (401)', async () => {
      const editor = await signedIn(t, 'editor');
      const reader = await signedIn(t, 'reader');
      for (const client of [editor, reader, await editor.withToken()]) {
        const res = await postImport(client, body).expect(403);
        expect(res.body).toEqual(problem(403, 'insufficient_role'));
      }
      const res = await postImport(anonymous(t), body).expect(401);
      expect(res.body).toEqual(problem(401, 'unauthenticated'));
      expect(await count(t, 'pages')).toBe(0);
    });
  });
});
