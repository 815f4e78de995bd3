/**
 * `npm run test:corpora`: imports the real-world sets under ../shared/corpora through
 * POST /api/import and checks what corpora/README.md says a good import does.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { strFromU8, unzipSync, zipSync, Zippable } from 'fflate';
import { dropExtension, slugFromPath } from '../../src/import/slugs';
import { MarkdownRenderer } from '../../src/pages/rendering/markdown-renderer';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { count, pageRow, postImport } from '../support/import-helpers';
import {
  confluenceLanguages,
  documentKeys,
  lostLanguages,
  markdownLanguages,
  measure,
  SetMetrics,
} from './corpus-metrics';

/** `../shared/corpora` beside the repository, or KB_CORPORA_DIR (a worktree elsewhere). */
const CORPORA =
  process.env.KB_CORPORA_DIR ?? resolve(__dirname, '..', '..', '..', 'shared', 'corpora');
const present = existsSync(join(CORPORA, 'README.md'));
if (!present)
  console.warn(
    `test:corpora skipped: ${CORPORA} does not exist (the shared corpora are not checked out).`,
  );
const describeCorpora = present ? describe : describe.skip;

const MEDIA_REF = /\/api\/(images|attachments)\/[0-9a-f-]{36}\/content/;

function tree(dir: string, filter: (path: string) => boolean = () => true): Record<string, Buffer> {
  const root = join(CORPORA, dir);
  const out: Record<string, Buffer> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const rel = relative(root, path).split('\\').join('/');
      if (statSync(path).isDirectory()) walk(path);
      else if (filter(rel)) out[rel] = readFileSync(path);
    }
  };
  walk(root);
  return out;
}

function zipOf(files: Record<string, Buffer>): Buffer {
  const entries: Zippable = {};
  for (const [path, data] of Object.entries(files)) entries[path] = new Uint8Array(data);
  return Buffer.from(zipSync(entries));
}

function file(path: string): { name: string; data: Buffer } {
  return { name: path.split('/').pop()!, data: readFileSync(join(CORPORA, path)) };
}

async function allContent(t: TestApp): Promise<{ slug: string; title: string; content: string }[]> {
  return t.dataSource.query(
    'SELECT slug, title, content FROM pages WHERE live_slug IS NOT NULL ORDER BY slug',
  );
}

/** Code blocks with a language per page slug (Markdown sets: the slug is the file path). */
function bySlug(files: [string, string][]): Map<string, number> {
  return new Map(
    files.map(([path, text]) => [slugFromPath(dropExtension(path))!, markdownLanguages(text)]),
  );
}

/** Code blocks with a language for a whole set whose slugs come from titles. */
function whole(counts: number[]): Map<string, number> {
  return new Map([['*', counts.reduce((a, b) => a + b, 0)]]);
}

/** One row per imported set, printed at the end: the numbers the issue asks for. */
const rows: string[] = [];

describeCorpora('import corpora', () => {
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    console.log(
      [
        'set | pages | links resolved | broken in-set | to skipped documents | broken outside | markers | code languages (source/rendered/lost)',
        ...rows,
      ].join('\n'),
    );
    await t?.close();
  });

  /**
   * Renders every live page as a page read does and checks what the issue asks of every set:
   * 0 broken internal links whose target is in the set, 0 literal `[!NOTE]`-style markers,
   * 0 lost code languages.
   */
  async function expectFidelity(
    set: string,
    documentPaths: string[],
    sourceLanguages: Map<string, number>,
    skippedPaths: string[] = [],
  ): Promise<SetMetrics> {
    const renderer = t.get(MarkdownRenderer);
    const rendered = (await allContent(t)).map((page) => ({
      slug: page.slug,
      html: renderer.render(page.content, {}, { baseSlug: page.slug }),
    }));
    const metrics = measure(
      rendered,
      documentKeys(documentPaths),
      sourceLanguages,
      documentKeys(skippedPaths),
    );
    const lost = lostLanguages(metrics);
    rows.push(
      `${set} | ${metrics.pages} | ${metrics.linksResolved} | ${metrics.brokenInSet.length} | ${metrics.brokenToSkipped} | ${metrics.brokenOutside} | ${metrics.markers.length} | ${metrics.sourceLanguages}/${metrics.renderedLanguages}/${lost}`,
    );
    expect({ set, brokenInSet: metrics.brokenInSet }).toEqual({ set, brokenInSet: [] });
    expect({ set, markers: metrics.markers }).toEqual({ set, markers: [] });
    expect({ set, badLanguageClasses: metrics.badLanguageClasses, lost }).toEqual({
      set,
      badLanguageClasses: [],
      lost: 0,
    });
    return metrics;
  }
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
  });

  describe('markdown/rustc-dev-guide', () => {
    const docs = () => zipOf(tree('markdown/rustc-dev-guide/src'));
    const markdownFiles = () =>
      Object.keys(tree('markdown/rustc-dev-guide/src', (p) => p.endsWith('.md')));
    const WITHOUT_HEADING = [
      'autodiff/internals.md',
      'backend/debugging.md',
      'solve/significant-changes.md',
    ];

    it('strict mode rejects the whole request, naming the files without a level-one heading', async () => {
      const res = await postImport(admin, {
        format: 'markdown',
        files: [{ name: 'src.zip', data: docs() }],
      }).expect(422);
      expect(res.body).toEqual(
        problem(422, 'validation_failed', {
          errors: WITHOUT_HEADING.map((path) => ({
            field: `files[${path}]`,
            code: 'missing_title',
            message: expect.stringContaining(path),
          })),
        }),
      );
      expect(await count(t, 'pages')).toBe(0);
      expect(await count(t, 'media')).toBe(0);
    });

    it('skip mode imports every other file at its path with its heading as title; images are stored and referenced', async () => {
      const started = Date.now();
      const res = await postImport(admin, {
        format: 'markdown',
        skipInvalid: true,
        files: [{ name: 'src.zip', data: docs() }],
      }).expect(200);
      console.log(
        `rustc-dev-guide: ${res.body.counts.created} pages in ${Date.now() - started} ms`,
        JSON.stringify([res.body.counts, res.body.unresolvedImages, res.body.storedAsAttachment]),
      );
      const md = markdownFiles();
      expect(res.body.skipped.map((s: { path: string }) => s.path).sort()).toEqual(WITHOUT_HEADING);
      expect(res.body.created).toHaveLength(md.length - WITHOUT_HEADING.length);
      expect(res.body.created).toEqual(
        expect.arrayContaining([
          'about-this-guide',
          'building/how-to-build-and-run',
          'getting-started',
        ]),
      );
      expect(await pageRow(t, 'about-this-guide')).toMatchObject({
        title: 'About this guide',
        verified: true,
      });

      // The PNGs are stored as images; the 3 SVGs, which kb never serves as images, are stored
      // as attachments (served as downloads), named in the report, and referenced by that URL.
      expect(res.body.images.length).toBeGreaterThanOrEqual(10);
      for (const image of res.body.images) {
        expect(image.path).toMatch(/\.png$/);
        expect(image.url).toMatch(MEDIA_REF);
      }
      expect(res.body.refusedFiles).toEqual([]);
      expect(res.body.storedAsAttachment).toHaveLength(3);
      for (const item of res.body.storedAsAttachment) {
        expect(item.path).toMatch(/\.svg$/);
        expect(item.url).toBe(`/api/attachments/${item.id}/content`);
      }
      for (const unresolved of res.body.unresolvedImages)
        expect(unresolved.target).not.toMatch(/\.(svg|png)$/);
      const pages = await allContent(t);
      const svgUrls = res.body.storedAsAttachment.map((i: { url: string }) => i.url);
      for (const url of svgUrls) expect(pages.some((p) => p.content.includes(url))).toBe(true);
      const construction = pages.find((p) => p.slug === 'mir/construction')!;
      expect(construction.content).toMatch(
        new RegExp(`<img src="/api/attachments/${'[0-9a-f-]{36}'}/content">`),
      );
      const wpa = pages.find((p) => p.slug === 'profiling/wpa-profiling')!;
      expect(wpa.content).toMatch(
        new RegExp(`!\\[WPA with profile applied\\]\\(${MEDIA_REF.source}\\)`),
      );
      // No reference to a PNG of the set is left pointing at the archive.
      for (const page of pages)
        expect(page.content).not.toMatch(/\]\((\.\.\/|\.\/)?img\/[\w-]+\.png\)/);
      // Links between imported files point at the new slugs.
      const summary = pages.find((p) => p.slug === 'summary')!;
      expect(summary.content).toContain('](/getting-started)');

      const sources = tree('markdown/rustc-dev-guide/src', (p) => p.endsWith('.md'));
      const imported = Object.entries(sources).filter(([p]) => !WITHOUT_HEADING.includes(p));
      await expectFidelity(
        'markdown/rustc-dev-guide',
        Object.keys(sources),
        bySlug(imported.map(([path, data]) => [path, data.toString('utf8')])),
        WITHOUT_HEADING,
      );
    });
  });

  describe('wikijs/wiki-docs-v2 (storage files)', () => {
    it('imports every page with its front matter title and tags; links between pages resolve; missing assets are reported', async () => {
      const res = await postImport(admin, {
        format: 'wikijs',
        files: [{ name: 'wiki.zip', data: zipOf(tree('wikijs/wiki-docs-v2')) }],
      }).expect(200);
      expect(res.body.counts).toMatchObject({ created: 85, skipped: 0 });
      const docker = await admin.get('/api/pages/install/docker').expect(200);
      expect(docker.body).toMatchObject({
        title: 'Docker',
        tags: ['setup', 'docker'],
        verified: true,
      });
      expect(docker.body.content).toContain(
        '> [!NOTE]\n> Before proceeding, make sure you meet the [system requirements](/install/requirements).',
      );
      expect(docker.body.content).not.toContain('{.is-info}');
      // Every unresolved link names a page that is not part of the set.
      const slugs = new Set(res.body.created);
      for (const link of res.body.unresolvedLinks)
        expect(slugs.has(link.target.replace(/^\/+|[#?].*$/g, ''))).toBe(false);
      // Assets that exist are stored; the ones the set lacks are reported, not fatal.
      expect(res.body.images.length).toBeGreaterThan(0);
      expect(res.body.unresolvedImages.length).toBeGreaterThan(0);
      for (const image of res.body.unresolvedImages)
        expect(existsSync(join(CORPORA, 'wikijs/wiki-docs-v2', image.target))).toBe(false);

      const sources = tree('wikijs/wiki-docs-v2', (p) => p.endsWith('.md'));
      await expectFidelity(
        'wikijs/wiki-docs-v2',
        Object.keys(sources),
        bySlug(Object.entries(sources).map(([path, data]) => [path, data.toString('utf8')])),
      );
    });
  });

  describe('wikijs/derived-json', () => {
    it.each([
      ['pages-array.json', ['wikijs/derived-json/pages-array.json']],
      ['export-pages.json', ['wikijs/derived-json/export-pages.json']],
      ['export-pages.json.gz', ['wikijs/derived-json/export-pages.json.gz']],
      [
        'graphql-pages-single/*.json',
        (present ? readdirSync(join(CORPORA, 'wikijs/derived-json/graphql-pages-single')) : []).map(
          (n) => `wikijs/derived-json/graphql-pages-single/${n}`,
        ),
      ],
    ])('honours path, title and content in %s', async (label, paths) => {
      const res = await postImport(admin, { format: 'wikijs', files: paths.map(file) }).expect(200);
      expect(res.body.counts).toMatchObject({ created: 85, skipped: 0 });
      expect(await pageRow(t, 'install/docker')).toMatchObject({ title: 'Docker' });
      expect((await pageRow(t, 'auth'))!.content).toContain('[Auth0](/auth/auth0)');

      const pages = JSON.parse(
        readFileSync(join(CORPORA, 'wikijs/derived-json/pages-array.json'), 'utf8'),
      ) as { path: string; content: string }[];
      await expectFidelity(
        `wikijs/derived-json ${label}`,
        pages.map((p) => `${p.path}.md`),
        bySlug(pages.map((p) => [`${p.path}.md`, p.content])),
      );
    });

    it('refuses the GraphQL pages.list shape, which carries no content, with a clear 422', async () => {
      const res = await postImport(admin, {
        format: 'wikijs',
        files: [file('wikijs/derived-json/graphql-pages-list.json')],
      }).expect(422);
      expect(res.body.errors).toHaveLength(85);
      expect(res.body.errors[0]).toEqual({
        field: 'files[graphql-pages-list.json#auth]',
        code: 'wikijs_invalid_page',
        message: expect.stringContaining('no "content"'),
      });
      expect(await count(t, 'pages')).toBe(0);
    });
  });

  describe('confluence/coding-cli', () => {
    it('imports the space export ZIP: titles without the space prefix, hierarchy from index.html, attachments stored', async () => {
      const res = await postImport(admin, {
        format: 'confluence',
        files: [file('confluence/coding-cli/Confluence-space-export-231543-81.html.zip')],
      }).expect(200);
      expect([...res.body.created].sort()).toEqual(
        [
          '空间-1-home',
          '空间-1-home/hello-world',
          '空间-1-home/hello-world/hello',
          '空间-1-home/hello-world/world',
          '空间-1-home/你好世界',
        ].sort(),
      );
      expect((await pageRow(t, '空间-1-home/hello-world/hello'))!.title).toBe('hello');
      expect(res.body.images.length + res.body.attachments.length).toBeGreaterThan(0);
      const pages = await allContent(t);
      for (const page of pages) {
        expect(page.content).not.toContain('Document generated by Confluence');
        expect(page.content).not.toContain('Created by');
      }
      expect(pages.some((p) => MEDIA_REF.test(p.content))).toBe(true);

      const exported = unzipSync(
        new Uint8Array(
          readFileSync(
            join(CORPORA, 'confluence/coding-cli/Confluence-space-export-231543-81.html.zip'),
          ),
        ),
      );
      const html = Object.keys(exported).filter(
        (p) => /\.html$/.test(p) && !/index\.html$/.test(p),
      );
      await expectFidelity(
        'confluence/coding-cli (export ZIP)',
        html,
        whole(html.map((p) => confluenceLanguages(strFromU8(exported[p])))),
      );
    });

    it('imports the unzipped space and the loose pages', async () => {
      const space = await postImport(admin, {
        format: 'confluence',
        files: [
          {
            name: 'space1.zip',
            data: zipOf(tree('confluence/coding-cli/space1', (p) => !p.endsWith('.md'))),
          },
        ],
      }).expect(200);
      expect(space.body.created).toEqual(
        expect.arrayContaining([
          '你好世界',
          '你好世界/attachment-demo',
          '你好世界/text-demo',
          'image-demo',
        ]),
      );
      const image = await pageRow(t, 'image-demo');
      expect(image!.content).toMatch(new RegExp(`!\\[coding-logo.png\\]\\(${MEDIA_REF.source}\\)`));
      expect(image!.content).not.toContain('data:image');
      const attachment = await pageRow(t, '你好世界/attachment-demo');
      expect(attachment!.content).toMatch(
        new RegExp(
          `\\[Lorem Ipsum 2021-06-08T10\\\\_55\\\\_27\\+0800.txt\\]\\(${MEDIA_REF.source}\\)`,
        ),
      );
      const spaceHtml = tree('confluence/coding-cli/space1', (p) => /\.html$/.test(p));
      await expectFidelity(
        'confluence/coding-cli (space1)',
        Object.keys(spaceHtml),
        whole(Object.values(spaceHtml).map((d) => confluenceLanguages(d.toString('utf8')))),
      );

      await t.reset();
      admin = await signedIn(t, 'admin');
      const loose = [
        'table-demo.html',
        'userlink-demo.html',
        'recent-space-activity-demo.html',
        'space-contributors-demo.html',
      ].map((n) => file(`confluence/coding-cli/${n}`));
      const res = await postImport(admin, { format: 'confluence', files: loose }).expect(200);
      expect(res.body.counts.created).toBe(4);
      const table = (await allContent(t)).find((p) => p.title === '表格 demo')!;
      expect(table.content).toContain('| 参数名称 | 是否必传 | 说明 |');
      await expectFidelity(
        'confluence/coding-cli (loose pages)',
        loose.map((f) => f.name),
        whole(loose.map((f) => confluenceLanguages(f.data.toString('utf8')))),
      );
    });
  });

  describe('confluence/savu-tomography', () => {
    it('fences code with its language, turns panels into callouts, drops TOC CSS, reports links to missing pages', async () => {
      const pages = readdirSync(join(CORPORA, 'confluence/savu-tomography/pages')).map((n) =>
        file(`confluence/savu-tomography/pages/${n}`),
      );
      const res = await postImport(admin, { format: 'confluence', files: pages }).expect(200);
      expect(res.body.counts).toMatchObject({ created: 28, skipped: 0 });
      const all = await allContent(t);
      const text = all.map((p) => p.content).join('\n');
      expect((text.match(/^```java$/gm) ?? []).length).toBeGreaterThan(50);
      expect(text).not.toMatch(/rbtoc\d+|syntaxhighlighter-pre \{/);
      expect(text).toContain('> [!TIP]');
      expect(res.body.unresolvedLinks).toEqual(
        expect.arrayContaining([{ path: 'savu_tutorial.html', target: '17827244.html' }]),
      );
      const astra = all.find((p) => p.title === 'AstraReconCpu')!;
      expect(astra.content).toContain('<a href="/astrarecongpu">AstraReconGpu</a>');
      await expectFidelity(
        'confluence/savu-tomography',
        pages.map((f) => f.name),
        whole(pages.map((f) => confluenceLanguages(f.data.toString('utf8')))),
      );
    });
  });

  describe('hostile/outline-fixtures', () => {
    it.each([
      ['textbundle-traversal.textpack', 'unsafe_entry_name'],
      ['corrupt.zip', 'zip_corrupt'],
      ['empty.zip', 'zip_empty'],
      ['empty.md', 'missing_title'],
    ])('refuses %s with a clear problem and writes nothing anywhere', async (name, code) => {
      const res = await postImport(admin, {
        format: 'markdown',
        files: [file(`hostile/outline-fixtures/${name}`)],
      }).expect(422);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: expect.stringMatching(/^files\[/), code }),
        ]),
      );
      expect(await count(t, 'pages')).toBe(0);
      expect(await count(t, 'media')).toBe(0);
      expect(existsSync(join(t.dataDir, 'tmp')) ? readdirSync(join(t.dataDir, 'tmp')) : []).toEqual(
        [],
      );
    });
  });
});
