import { signedIn } from '../support/users';
import {
  fixture,
  MEDIA_URL,
  pageRow,
  postImport,
  readTree,
  zip,
  useImportApp,
} from '../support/import-helpers';

/**
 * Migration fidelity (issue 14, defects 1–8): links between imported files resolve, slugs are
 * clean, titles are right, callouts and code languages survive, non-page files do not block
 * an import, Confluence page chrome is removed. Each on a fixture shaped like the real thing.
 */
describe('POST /api/import: migration fidelity', () => {
  const ctx = useImportApp();

  const html = async (slug: string): Promise<string> =>
    (await ctx.admin.get(`/api/pages/${slug}`).expect(200)).body.html as string;

  describe('a Markdown site that links page.html (defects 1, 2, 3, 5, 6)', () => {
    let report: Record<string, unknown>;
    beforeEach(async () => {
      report = (
        await postImport(ctx.admin, {
          format: 'markdown',
          files: [{ name: 'site.zip', data: zip(readTree('fidelity/site')) }],
        }).expect(200)
      ).body;
    });

    it('gives readable slugs from percent-encoded names and from their slugified residue', () => {
      expect([...(report.created as string[])].sort()).toEqual([
        'basic-tutorial-1-hello-world',
        'basic-tutorial-2-next-steps',
        'faq',
        'guide/getting-started',
        'index',
      ]);
    });

    it('resolves X.html / X.htm links (decoded, case-folded) to the imported pages, anchors kept', async () => {
      expect(report.unresolvedLinks).toEqual([]);
      const index = await pageRow(ctx.t, 'index');
      expect(index!.content).toContain('[the basics](/basic-tutorial-1-hello-world)');
      expect(index!.content).toContain('[the next steps](/basic-tutorial-2-next-steps)');
      expect(index!.content).toContain('[install steps](/guide/getting-started#install-steps)');
      expect(index!.content).toContain('[GUIDE/getting started.HTML](/guide/getting-started)');
      expect(index!.content).toContain('[FAQ](/faq#why)');
      const page = await html('index');
      expect(page).toContain('<a href="/basic-tutorial-1-hello-world">the basics</a>');
      expect(page).toContain('<a href="/guide/getting-started#install-steps">install steps</a>');
      expect((await pageRow(ctx.t, 'guide/getting-started'))!.content).toContain(
        'See [the FAQ](/faq#why) and [the first install steps](#install-steps).',
      );
    });

    it('titles: front matter wins and a different heading stays; escapes and inline markup become plain text', async () => {
      const index = await ctx.admin.get('/api/pages/index').expect(200);
      expect(index.body).toMatchObject({ title: 'Team Handbook', tags: ['handbook'] });
      expect(index.body.content).toMatch(/^# Welcome\n/);
      expect(index.body.html).toContain('<h1 id="welcome">Welcome</h1>');
      expect((await pageRow(ctx.t, 'basic-tutorial-1-hello-world'))!.title).toBe(
        'Basic tutorial 1: Hello world!',
      );
      expect((await pageRow(ctx.t, 'basic-tutorial-2-next-steps'))!.title).toBe(
        'Basic tutorial 2: Next steps!',
      );
      const guide = await pageRow(ctx.t, 'guide/getting-started');
      expect(guide!.title).toBe('Getting Started');
      expect(guide!.content).not.toContain('# Getting');
    });

    it('takes code languages from Confluence brush parameters and from `rust,ignore`', async () => {
      const stored = (await pageRow(ctx.t, 'basic-tutorial-1-hello-world'))!.content;
      expect(stored).toContain('```cpp\n#include <cstdio>');
      expect(stored).toContain('```java\nSystem.out.println("hi");');
      expect(stored).toContain('```\nplain output');
      // Highlighted (token spans) by the language; the code's text unchanged.
      const page = await html('basic-tutorial-1-hello-world');
      expect(page).toContain('<pre><code class="language-cpp"><span class="hljs-meta">');
      const text = (markup: string) => markup.replace(/<\/?span[^>]*>/g, '');
      expect(text(page)).toContain('<pre><code class="language-cpp">#include &lt;cstdio&gt;');
      expect(text(page)).toContain('<pre><code class="language-java">System.out.println');
      expect(page).toContain('<pre><code>plain output');
      expect(text(await html('basic-tutorial-2-next-steps'))).toContain(
        '<pre><code class="language-rust">fn main() {}',
      );
    });

    it('gives headings GitHub ids, duplicates numbered, so #section links land', async () => {
      const page = await html('guide/getting-started');
      expect(page).toContain('<h2 id="install-steps">Install steps</h2>');
      expect(page).toContain('<h2 id="install-steps-1">Install steps</h2>');
      expect(page).toContain('<h2 id="c--rust-10">C++ &amp; Rust: 1.0?</h2>');
      expect(await html('faq')).toContain('<h2 id="why">Why?</h2>');
    });

    it('renders every GitHub alert as a styled callout, never the marker (defect 4)', async () => {
      const page = await html('faq');
      for (const kind of ['tip', 'important', 'warning', 'caution', 'note'])
        expect(page).toContain(`<div class="markdown-alert markdown-alert-${kind}">`);
      expect(page).toContain(
        '<p class="markdown-alert-title">Tip</p>\n<p>Because it <strong>works</strong>.</p>',
      );
      expect(page).toContain('<a href="/index">handbook</a>');
      expect(page).not.toContain('[!');
    });

    it('styles the callouts in the print document (preview, print and PDF share it)', async () => {
      const res = await ctx.admin.post('/export/preview/faq').send({}).expect(200);
      const document = res.body.document as string;
      expect(document).toContain('<div class="markdown-alert markdown-alert-caution">');
      expect(document).toMatch(/\.markdown-alert \{[^}]*border-left/);
      expect(document).toMatch(/\.markdown-alert-caution \{[^}]*border-left-color/);
      expect(document).not.toContain('[!');
    });

    it('previews callouts the same way', async () => {
      const res = await ctx.admin
        .post('/api/preview')
        .send({ content: '> [!WARNING]\n> Mind the gap' })
        .expect(200);
      expect(res.body.html).toBe(
        '<div class="markdown-alert markdown-alert-warning">\n<p class="markdown-alert-title">Warning</p>\n<p>Mind the gap</p>\n</div>\n',
      );
    });
  });

  describe('Wiki.js 1 files (defect 3)', () => {
    it('take the title from <!-- TITLE -->, the description from <!-- SUBTITLE -->, and keep the first section heading', async () => {
      const res = await postImport(ctx.admin, {
        format: 'wikijs',
        files: [{ name: 'wiki.zip', data: zip(readTree('fidelity/wikijs1')) }],
      }).expect(200);
      expect([...res.body.created].sort()).toEqual(['home', 'install']);
      const install = await ctx.admin.get('/api/pages/install').expect(200);
      expect(install.body).toMatchObject({
        title: 'Installation',
        properties: { description: 'Getting the wiki running on your server' },
      });
      expect(install.body.content).toMatch(/^# Requirements\n\n- Node\.js 8 or later\n\n# Steps/);
      expect(install.body.content).toContain('[requirements](/install#requirements)');
      expect(install.body.html).toContain('<h1 id="requirements">Requirements</h1>');
      expect((await pageRow(ctx.t, 'home'))!).toMatchObject({
        title: 'Home',
        content: 'Welcome! See the [installation guide](/install).',
      });
      expect(res.body.unresolvedLinks).toEqual([]);
    });
  });

  describe('Confluence-converted Markdown (defects 1, 3, 5, 8)', () => {
    const upload = () => [{ name: 'ops-md.zip', data: zip(readTree('fidelity/confluence-md')) }];

    it('format=confluence: chrome removed by default, space prefix dropped, links and Confluence anchors resolved', async () => {
      const res = await postImport(ctx.admin, { format: 'confluence', files: upload() }).expect(
        200,
      );
      expect([...res.body.created].sort()).toEqual([
        'deploy-runbook_65541',
        'operations-home_65540',
      ]);
      expect(res.body.unresolvedLinks).toEqual([]);
      const home = await pageRow(ctx.t, 'operations-home_65540');
      expect(home!.title).toBe('Operations Home');
      expect(home!.content).not.toMatch(
        /Created by|last modified|Document generated by Confluence|Atlassian|images\/icons|index\.html/,
      );
      expect(home!.content).toMatch(/^Welcome to the operations space\./);
      expect(home!.content).toContain('[Deploy Runbook](/deploy-runbook_65541)');
      expect(home!.content).toContain('[rollback section](/deploy-runbook_65541#rollback)');
      expect(await html('operations-home_65540')).toContain(
        '<div class="markdown-alert markdown-alert-note">',
      );

      const runbook = await pageRow(ctx.t, 'deploy-runbook_65541');
      expect(runbook!.title).toBe('Deploy Runbook');
      expect(runbook!.content).toContain('```java\npublic class Deploy { }\n```');
      expect(runbook!.content).toContain('```bash\n./deploy.sh --env=prod\n```');
      expect(runbook!.content).toMatch(
        new RegExp(`\\[steps\\.csv\\]\\(/api/attachments/[0-9a-f-]{36}/content\\)`),
      );
      expect(runbook!.content).not.toMatch(/bullet_blue|Created by|Document generated/);
      const page = await html('deploy-runbook_65541');
      expect(page).toContain('<h2 id="rollback">Rollback</h2>');
      expect(page).toContain('<code class="language-bash">');
      // The Confluence icons are not stored: they are reported as files nothing uses.
      expect(res.body.images).toEqual([]);
      expect(res.body.ignored).toEqual(
        expect.arrayContaining([
          { path: 'images/icons/bullet_blue.gif', reason: expect.any(String) },
        ]),
      );
    });

    it('format=markdown keeps the chrome unless cleanConfluence=true; the prefix goes either way', async () => {
      await postImport(ctx.admin, { format: 'markdown', files: upload() }).expect(200);
      const kept = await pageRow(ctx.t, 'deploy-runbook_65541');
      expect(kept!.title).toBe('Deploy Runbook');
      expect(kept!.content).toContain('Document generated by Confluence');

      await postImport(ctx.admin, {
        format: 'markdown',
        files: upload(),
        fields: { cleanConfluence: 'true' },
      }).expect(200);
      expect((await pageRow(ctx.t, 'deploy-runbook_65541'))!.content).not.toContain(
        'Document generated by Confluence',
      );
    });
  });

  describe('a Wiki.js ZIP with non-page files (defects 4, 7)', () => {
    it('imports the pages; manifest/config JSON and uploads are files, used ones stored, the rest listed as ignored', async () => {
      const res = await postImport(ctx.admin, {
        format: 'wikijs',
        files: [{ name: 'wiki.zip', data: zip(readTree('fidelity/wikijs-zip')) }],
      }).expect(200);
      expect(res.body.created).toEqual(['home']);
      expect(res.body.skipped).toEqual([]);
      expect(res.body.images).toEqual([
        { path: 'uploads/logo.png', id: expect.any(String), url: expect.stringMatching(MEDIA_URL) },
      ]);
      expect(res.body.attachments).toEqual([
        { path: 'uploads/notes.md', id: expect.any(String), url: expect.stringMatching(MEDIA_URL) },
      ]);
      expect(res.body.ignored).toEqual([
        { path: 'assets/data.json', reason: 'Not a page, and no page references it.' },
        { path: 'config.json', reason: expect.stringContaining('not a Wiki.js page shape') },
        { path: 'manifest.json', reason: expect.stringContaining('not a Wiki.js page shape') },
      ]);
      expect(res.body.counts.ignored).toBe(3);
      const home = await ctx.admin.get('/api/pages/home').expect(200);
      expect(home.body.content).toContain('> [!NOTE]\n> Remember to log in.');
      expect(home.body.html).toContain(
        '<div class="markdown-alert markdown-alert-note">\n<p class="markdown-alert-title">Note</p>\n<p>Remember to log in.</p>',
      );
      expect(home.body.html).toContain('<div class="markdown-alert markdown-alert-caution">');
      expect(home.body.html).not.toContain('[!');
    });
  });

  describe('Confluence Word exports and refusals (defect 9)', () => {
    it('imports the MHTML .doc (quoted-printable, embedded image), also when renamed to .html', async () => {
      const res = await postImport(ctx.admin, {
        format: 'confluence',
        files: [
          { name: 'Incident-Runbook.doc', data: fixture('fidelity/word/Incident-Runbook.doc') },
        ],
      }).expect(200);
      const slug = 'incident-runbook-größte-störung';
      expect(res.body.created).toEqual([slug]);
      expect(res.body.images).toEqual([
        {
          path: 'Incident-Runbook.doc.files/1.png',
          id: expect.any(String),
          url: expect.stringMatching(MEDIA_URL),
        },
      ]);
      const page = await pageRow(ctx.t, slug);
      expect(page!.title).toBe('Incident Runbook – Größte Störung');
      expect(page!.content).toMatch(
        /^When the pager fires, open the \*\*status page\*\* first\. This paragraph is long enough/,
      );
      expect(page!.content).toContain('which must disappear when decoded.');
      expect(page!.content).toContain(
        '> [!CAUTION]\n> Never restart the primary database by hand.',
      );
      expect(page!.content).toContain('```bash\nsystemctl status api\n```');
      expect(page!.content).toContain(`![](${res.body.images[0].url})`);
      expect(page!.content).not.toMatch(/=3D|=\r?\n|Content-Type|@page|mso-/);

      await ctx.t.reset();
      ctx.admin = await signedIn(ctx.t, 'admin');
      const renamed = await postImport(ctx.admin, {
        format: 'confluence',
        files: [
          { name: 'renamed-runbook.html', data: fixture('fidelity/word/renamed-runbook.html') },
        ],
      }).expect(200);
      expect(renamed.body.created).toEqual([slug]);
      expect((await pageRow(ctx.t, slug))!.content).not.toMatch(/=3D|Content-Type|------=_Part/);
    });

    it('refuses a binary Word file naming it and what to export instead', async () => {
      const res = await postImport(ctx.admin, {
        format: 'confluence',
        files: [
          { name: 'Quarterly-Report.doc', data: fixture('fidelity/word/Quarterly-Report.doc') },
        ],
      }).expect(422);
      expect(res.body.errors).toEqual([
        {
          field: 'files[Quarterly-Report.doc]',
          code: 'confluence_word_export',
          message: expect.stringMatching(
            /^"Quarterly-Report\.doc" is a Word document.*export the space from Confluence as HTML or XML/,
          ),
        },
      ]);
    });

    it('names each file when nothing in the upload is a document of the format', async () => {
      const res = await postImport(ctx.admin, {
        format: 'markdown',
        files: [
          {
            name: 'pictures.zip',
            data: zip({ 'a.png': fixture('markdown/images/logo.png'), 'b.txt': 'x' }),
          },
        ],
      }).expect(422);
      expect(res.body.errors).toEqual([
        {
          field: 'files[pictures.zip]',
          code: 'no_documents',
          message:
            '"pictures.zip" holds no Markdown documents (.md, .markdown); it holds a.png, b.txt.',
        },
      ]);
    });
  });
});
