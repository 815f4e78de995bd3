import { count, pageRow, postImport, readTree, zip, useImportApp } from '../support/import-helpers';

const UUID = '[0-9a-f-]{36}';
const MEDIA = /^\/api\/images\/[0-9a-f-]{36}\/content$/;
const HOME = 'eng/engineering-home';
const BUILD = 'eng/engineering-home/build-guide';
const SHIP = 'eng/engineering-home/build-guide/release-ship';
const GLOSSARY = 'eng/engineering-home/glossary';
const RUNBOOK = 'ops/runbook';

/**
 * Issue 28, item 7: the migration defects held-out sources still showed. Markdown converted
 * from Confluence (clean-up on): titles without the space name when not every page carries
 * it, and the chrome that survived (header lines wrapped or in blocks, the attachments macro,
 * avatars, thumbnails, icons and emoticons). Confluence XML space exports: links between the
 * pages of one export by page id and by title in every form Confluence writes them, and a
 * re-import of an unchanged export that changes nothing.
 */
describe('POST /api/import: Confluence migration (held-out defects)', () => {
  const ctx = useImportApp();

  describe('Markdown converted from Confluence, clean-up on', () => {
    const upload = () => [{ name: 'handbook-md.zip', data: zip(readTree('confluence-md-chrome')) }];
    const CHROME =
      /images\/icons|documentConversion|thumbnail|userLogo|user-avatar|profilepics|plugin_attachments|Drag and drop|Download All|This page last changed|Created by|last modified|Document generated|title-text|pagetitle|\{#|\{\.|\{width|pagesubheading|index\.html/;

    it('titles lose the space name even when not every page carries it; the chrome is gone from every page', async () => {
      const res = await postImport(ctx.admin, { format: 'confluence', files: upload() }).expect(
        200,
      );
      const titles = Object.fromEntries(
        (await ctx.t.dataSource.query('SELECT slug, title, content FROM pages ORDER BY slug')).map(
          (p: { slug: string; title: string }) => [p.slug, p.title],
        ),
      );
      expect(titles).toEqual({
        '65603': 'Über uns',
        'build-guide_65601': 'Build Guide',
        index: 'Engineering Handbook',
        'ops/runbook_70001': 'Runbook',
        'q-a-billing_65604': 'Q&A : Billing',
        'release-notes_65602': 'Release Notes',
      });
      for (const slug of Object.keys(titles)) {
        const content = (await pageRow(ctx.t, slug))!.content;
        expect({ slug, chrome: CHROME.exec(content)?.[0] }).toEqual({ slug, chrome: undefined });
      }
      expect(res.body.unresolvedLinks).toEqual([]);

      const build = (await pageRow(ctx.t, 'build-guide_65601'))!.content;
      expect(build).toMatch(
        /^Build it first ✅, then read the \[release notes\]\(\/release-notes_65602\)\./,
      );
      // The document thumbnail is a link to the file, stored from the export.
      expect(build).toMatch(
        new RegExp(
          `The specification:\n\\[Build Spec\\.pdf\\]\\(/api/attachments/${UUID}/content\\)`,
        ),
      );
      expect(build).toContain('Usage\n-----\n\nRun `make`. See [usage](#usage).');
      expect((await ctx.admin.get('/api/pages/build-guide_65601').expect(200)).body.html).toContain(
        '<h2 id="usage">Usage</h2>',
      );

      const notes = (await pageRow(ctx.t, 'release-notes_65602'))!.content;
      expect(notes).toMatch(/^Written by Grace, reviewed\n🙂\./);
      expect(notes).toMatch(
        new RegExp(`<td><a href="/api/attachments/${UUID}/content">notes\\.txt</a></td>`),
      );
      expect(notes).toContain('Back to the [build guide](/build-guide_65601#usage).');

      expect((await pageRow(ctx.t, '65603'))!.content).toBe(
        'ℹ️ **Who we are**\n\nWe build things ⚠️ carefully.\n\nAda',
      );
      expect((await pageRow(ctx.t, 'q-a-billing_65604'))!.content).toBe('Ask finance.');
      expect((await pageRow(ctx.t, 'ops/runbook_70001'))!.content).toBe('Restart the service.');
      expect(res.body.attachments.map((a: { path: string }) => a.path).sort()).toEqual([
        'attachments/65601/65700.pdf',
        'attachments/65602/65701.txt',
      ]);
    });

    it('one page alone loses its space name too; without the clean-up the title stays as written', async () => {
      const page = readTree('confluence-md-chrome')['Q-A-Billing_65604.md'];
      await postImport(ctx.admin, {
        format: 'confluence',
        files: [{ name: 'Q-A-Billing_65604.md', data: page }],
      }).expect(200);
      expect((await pageRow(ctx.t, 'q-a-billing_65604'))!.title).toBe('Q&A : Billing');

      await postImport(ctx.admin, {
        format: 'markdown',
        prefix: 'raw',
        files: [{ name: 'Q-A-Billing_65604.md', data: page }],
      }).expect(200);
      expect(await pageRow(ctx.t, 'raw/q-a-billing_65604')).toMatchObject({
        title: 'Engineering Handbook : Q&A : Billing',
        content: expect.stringContaining('Created by'),
      });
    });
  });

  describe('Confluence XML export: links between its pages and an unchanged re-import', () => {
    const exportZip = () => zip(readTree('confluence-xml-links'));
    const importLinks = () =>
      postImport(ctx.admin, {
        format: 'confluence',
        files: [{ name: 'Confluence-space-export-ENG.xml.zip', data: exportZip() }],
      });
    const allContents = async () =>
      ctx.t.dataSource.query('SELECT slug, title, content, revision FROM pages ORDER BY slug');

    it('resolves links by title (with and without space key), by page id (ri:content-id, pageId=, historical ids, Cloud and short links) and by address (display/SPACE/Title, spaceKey and title)', async () => {
      const res = await importLinks().expect(200);
      expect([...res.body.created].sort()).toEqual([HOME, BUILD, SHIP, GLOSSARY, RUNBOOK].sort());
      // Only the link to a page outside the export is left unresolved.
      expect(res.body.unresolvedLinks).toEqual([
        { path: 'entities.xml#ENG:Engineering Home', target: '/display/OTHER/Missing+page' },
      ]);
      const home = (await pageRow(ctx.t, HOME))!.content;
      expect(home).toContain(
        `Start with the [Build guide](/${BUILD}) (by title), the [operations runbook](/${RUNBOOK}) (by title and space key) and the [Glossary](/${GLOSSARY}) (space key and title in another case).`,
      );
      expect(home).toContain(
        `By id: [ship it](/${SHIP}), [Glossary](/${GLOSSARY}), [runbook steps](/${RUNBOOK}#steps).`,
      );
      expect(home).toContain(
        `By address: [viewpage](/${BUILD}), [an old version](/${BUILD}), [display](/${SHIP}), [display with anchor](/${RUNBOOK}#steps), [cloud](/${GLOSSARY}), [short link](/${BUILD}), [by space and title](/${GLOSSARY}), [elsewhere](/display/OTHER/Missing+page).`,
      );
      expect(home).toContain(`The operations space: [Runbook](/${RUNBOOK}).`);
      // An id of a historical version names the current page.
      expect((await pageRow(ctx.t, GLOSSARY))!.content).toContain(
        `Words we use. See [Build guide](/${BUILD}).`,
      );
      const html = (await ctx.admin.get(`/api/pages/${HOME}`).expect(200)).body.html as string;
      expect(html).toContain(`<a href="/${SHIP}">ship it</a>`);
      expect(html).toContain(`<a href="/${RUNBOOK}#steps">display with anchor</a>`);
      // Every link between pages of the export lands on a live page.
      const links: { target: string }[] = await ctx.t.dataSource.query(
        'SELECT DISTINCT l.target_slug AS target FROM page_links l LEFT JOIN pages d ON d.live_slug = l.target_slug WHERE d.id IS NULL',
      );
      expect(links).toEqual([]);
    });

    it('re-importing the unchanged export reports every page unchanged and writes no revision', async () => {
      const first = await importLinks().expect(200);
      // One logo attached to two pages is stored once; a copy under another name keeps its name.
      expect(first.body.images).toEqual([
        {
          path: 'attachments/200001/400001/logo.png',
          id: expect.any(String),
          url: expect.stringMatching(MEDIA),
        },
        {
          path: 'attachments/200002/400002/logo.png',
          id: first.body.images[0].id,
          url: first.body.images[0].url,
        },
        {
          path: 'attachments/200003/400003/diagram.png',
          id: expect.any(String),
          url: expect.stringMatching(MEDIA),
        },
      ]);
      expect(first.body.images[2].id).not.toBe(first.body.images[0].id);
      const revisions = await count(ctx.t, 'page_revisions');
      const media = await count(ctx.t, 'media');
      const contents = await allContents();
      for (const round of [1, 2]) {
        const again = await importLinks().expect(200);
        expect({ round, pages: again.body.pages }).toEqual({
          round,
          pages: first.body.pages.map((p: { path: string; slug: string }) => ({
            ...p,
            outcome: 'unchanged',
          })),
        });
        expect(again.body.counts).toMatchObject({ created: 0, replaced: 0, unchanged: 5 });
        expect(again.body.images).toEqual(first.body.images);
        expect(again.body.attachments).toEqual(first.body.attachments);
        expect(await count(ctx.t, 'page_revisions')).toBe(revisions);
        expect(await count(ctx.t, 'media')).toBe(media);
        expect(await allContents()).toEqual(contents);
      }
      // A dry run predicts the same.
      const dry = await postImport(ctx.admin, {
        format: 'confluence',
        dryRun: true,
        files: [{ name: 'Confluence-space-export-ENG.xml.zip', data: exportZip() }],
      }).expect(200);
      expect(dry.body.counts).toMatchObject({ created: 0, replaced: 0, unchanged: 5 });
    });
  });
});
