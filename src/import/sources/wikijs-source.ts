import { posix } from 'node:path';
import { ConversionResult, SourceEntry } from '../import.types';
import { pacer } from '../pace';
import { dropExtension, repairEncodedSlug, slugFromPath } from '../slugs';
import { parseFrontMatter, splitFrontMatter, tagsFrom } from './front-matter';
import { htmlToMarkdown } from './html-markdown';
import { readMarkdownDocument } from './markdown-source';
import { tidyContent } from './markdown-title';
import { chooseTitle } from './titles';
import {
  dirOf,
  extensionOf,
  HTML_EXTENSIONS,
  isLooseUpload,
  MARKDOWN_EXTENSIONS,
  SourceCollector,
  SourceOptions,
} from './source-context';

/** Wiki.js keeps uploaded files here (storage modules, backups): files, never pages. */
const ASSET_FOLDER = /(?:^|\/)(?:assets|uploads|_assets|_uploads)\//i;

interface WikiPage {
  path: string;
  title: string;
  content: string;
  html: boolean;
  tags?: string[];
  properties: Record<string, unknown>;
}

/**
 * Wiki.js sources: JSON (a page object, an array of them, `{data:{pages:{single}}}`,
 * `{data:{pages:{list}}}`, `{pages:[...]}` as the admin export writes) and Wiki.js storage files
 * (Markdown or HTML with front matter), loose or in ZIPs. The Wiki.js path is the page path.
 */
export async function convertWikiJs(
  entries: SourceEntry[],
  options: SourceOptions,
): Promise<ConversionResult> {
  const out = new SourceCollector(options);
  const tick = pacer();
  for (const [done, entry] of entries.entries()) {
    await tick();
    options.onProgress?.(done);
    const ext = extensionOf(entry.path);
    if (!isLooseUpload(entry) && ASSET_FOLDER.test(entry.path)) {
      out.assets.set(entry.path, entry);
    } else if (ext === '.json') {
      convertJsonFile(entry, out);
    } else if (MARKDOWN_EXTENSIONS.has(ext) || HTML_EXTENSIONS.has(ext)) {
      convertStorageFile(entry, out, HTML_EXTENSIONS.has(ext));
    } else if (isLooseUpload(entry) && ext === '.txt') {
      out.reject(
        entry.path,
        'wrong_format',
        `"${entry.path}" is not Wiki.js JSON, a Wiki.js storage file or a ZIP of them.`,
      );
    } else {
      out.assets.set(entry.path, entry);
    }
  }
  return out;
}

function convertStorageFile(entry: SourceEntry, out: SourceCollector, html: boolean): void {
  const text = out.text(entry);
  if (text === undefined) return;
  let doc: { title?: string; body: string; meta: Record<string, unknown> };
  if (html) {
    const { raw, body } = splitFrontMatter(text, true);
    const meta = raw !== undefined ? parseFrontMatter(raw, true) : {};
    doc = { ...chooseTitle(meta.title, htmlToMarkdown(body)), meta };
  } else {
    doc = readMarkdownDocument(text, out.options.cleanConfluence === true, true);
  }
  if (doc.title === undefined) {
    out.reject(
      entry.path,
      'missing_title',
      `"${entry.path}" has no "title" in its front matter and no level-one heading.`,
    );
    return;
  }
  const path = dropExtension(entry.path);
  const slug = slugFromPath(path);
  const { title: _t, tags, ...rest } = doc.meta;
  out.add({
    sourcePath: entry.path,
    slug: slug && repairEncodedSlug(slug, doc.title),
    title: doc.title,
    content: tidyContent(wikiJsMarkdown(doc.body)),
    tags: tagsFrom(tags),
    properties: Object.keys(rest).length ? rest : undefined,
    baseDir: dirOf(entry.path),
    refKeys: [entry.path, path],
  });
}

function convertJsonFile(entry: SourceEntry, out: SourceCollector): void {
  const text = out.text(entry);
  if (text === undefined) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    out.reject(entry.path, 'invalid_json', `"${entry.path}" is not valid JSON.`);
    return;
  }
  const items = pageItems(parsed);
  if (items === undefined && !isLooseUpload(entry)) {
    // Inside an archive, JSON of another shape is a file of the site (a web manifest, a
    // configuration): available to pages that reference it, else reported as ignored.
    out.assets.set(entry.path, entry);
    out.notPages.set(
      entry.path,
      'JSON that is not a Wiki.js page shape (a page object, an array of pages, a GraphQL result or an admin export); kept as a file',
    );
    return;
  }
  if (items === undefined) {
    out.reject(
      entry.path,
      'wikijs_unknown_shape',
      `"${entry.path}" is not a Wiki.js page object, an array of pages, a GraphQL pages.single/pages.list result or an admin export.`,
    );
    return;
  }
  if (items.length === 0) {
    out.reject(entry.path, 'no_documents', `"${entry.path}" holds no pages.`);
    return;
  }
  items.forEach((item, index) => {
    const label = `${entry.path}#${typeof (item as { path?: unknown })?.path === 'string' ? (item as { path: string }).path : index}`;
    const page = readPage(item);
    if (typeof page === 'string') {
      out.reject(label, 'wikijs_invalid_page', `"${label}" ${page}.`);
      return;
    }
    const wikiPath = page.path.replace(/^\/+|\/+$/g, '');
    const body = page.html ? htmlToMarkdown(page.content) : page.content;
    out.add({
      sourcePath: label,
      slug: wikiPath === '' ? undefined : slugFromPath(wikiPath),
      title: page.title,
      content: tidyContent(wikiJsMarkdown(body)),
      tags: page.tags,
      properties: Object.keys(page.properties).length ? page.properties : undefined,
      baseDir: dirOf(wikiPath),
      refKeys: [wikiPath, `${wikiPath}.md`],
    });
  });
}

/** The page objects of each JSON shape Wiki.js produces; undefined for an unknown shape. */
function pageItems(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!value || typeof value !== 'object') return undefined;
  const object = value as Record<string, unknown>;
  if (typeof object.path === 'string') return [object];
  const data = object.data as { pages?: { single?: unknown; list?: unknown } } | undefined;
  if (data?.pages && typeof data.pages === 'object') {
    if (data.pages.single && typeof data.pages.single === 'object') return [data.pages.single];
    if (Array.isArray(data.pages.list)) return data.pages.list;
  }
  if (Array.isArray(object.pages)) return object.pages;
  return undefined;
}

function readPage(item: unknown): WikiPage | string {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return 'is not a page object';
  const page = item as Record<string, unknown>;
  if (typeof page.path !== 'string' || page.path.trim() === '') return 'has no "path"';
  if (typeof page.content !== 'string') {
    return 'has no "content" (a GraphQL pages.list result carries none: export with pages.single or the admin export)';
  }
  const title =
    typeof page.title === 'string' && page.title.trim() !== ''
      ? page.title
      : posix.basename(page.path);
  const type = String(
    page.contentType ?? page.editorKey ?? page.editor ?? 'markdown',
  ).toLowerCase();
  const properties: Record<string, unknown> = {};
  for (const key of [
    'description',
    'locale',
    'localeCode',
    'isPublished',
    'createdAt',
    'updatedAt',
  ] as const) {
    const v = page[key];
    if (typeof v === 'string' ? v !== '' : typeof v === 'boolean')
      properties[key === 'localeCode' ? 'locale' : key] = v;
  }
  return {
    path: page.path,
    title,
    content: page.content,
    html: type === 'html' || type === 'ckeditor',
    tags: tagsFrom(page.tags),
    properties,
  };
}

const CALLOUTS: Record<string, string> = {
  'is-info': 'NOTE',
  'is-success': 'TIP',
  'is-warning': 'WARNING',
  'is-danger': 'CAUTION',
};

/**
 * Wiki.js Markdown extensions: a `{.is-info}` line under a blockquote makes it a callout
 * (written as a GitHub-style `> [!NOTE]`); other `{.class}` lines and `{.class}` after
 * images are styling and dropped.
 */
export function wikiJsMarkdown(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    const marker = inFence ? null : /^\s*\{((?:\.[\w-]+\s*)+)\}\s*$/.exec(line);
    if (!marker) {
      out.push(inFence ? line : line.replace(/(!\[[^\]]*\]\([^)]*\))\{[^}\n]*\}/g, '$1'));
      continue;
    }
    const callout = marker[1]
      .split(/\s+/)
      .map((c) => CALLOUTS[c.replace(/^\./, '')])
      .find(Boolean);
    if (callout && out.length && out[out.length - 1].startsWith('>')) {
      let start = out.length - 1;
      while (start > 0 && out[start - 1].startsWith('>')) start--;
      out.splice(start, 0, `> [!${callout}]`);
    }
  }
  return out.join('\n');
}
