import { count, pageRow, postImport, readTree, zip, useImportApp } from '../support/import-helpers';

const MEDIA = /^\/api\/images\/[0-9a-f-]{36}\/content$/;
const HOME = 'eng/engineering-home';
const BUILD = 'eng/engineering-home/build-guide';
const SHIP = 'eng/engineering-home/build-guide/release-ship';
const GLOSSARY = 'eng/engineering-home/glossary';
const RUNBOOK = 'ops/runbook';

/**
 * Issue 28, item 7: the migration defects held-out sources still showed. Confluence XML
 * space exports: links between the pages of one export by page id and by title in every form
 * Confluence writes them, and a re-import of an unchanged export that changes nothing.
 */
describe('POST /api/import: Confluence migration (held-out defects)', () => {
  const ctx = useImportApp();

  describe('Confluence XML export: links between its pages and an unchanged re-import', () => {
    const exportZip = () => zip(readTree('confluence-xml-links'));
    const importLinks = () =>
      postImport(ctx.admin, {
        format: 'confluence',
        files: [{ name: 'Confluence-space-export-ENG.xml.zip', data: exportZip() }],
      });
    const allContents = async () =>
      ctx.t.dataSource.query('SELECT slug, title, content, revision FROM pages ORDER BY slug');

    it('resolves links by title (with and without space key), by page id (ri:content-id, pageId=, historical ids, Cloud addresses) and display/SPACE/Title', async () => {
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
        `By address: [viewpage](/${BUILD}), [an old version](/${BUILD}), [display](/${SHIP}), [display with anchor](/${RUNBOOK}#steps), [cloud](/${GLOSSARY}), [elsewhere](/display/OTHER/Missing+page).`,
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
