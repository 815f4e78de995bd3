import { posix } from 'node:path';
import { ConversionResult, SourceEntry } from '../import.types';
import { pacer } from '../pace';
import { slugifySegment } from '../slugs';
import { all, DomDocument, DomElement, parseHtml } from './dom';
import { readWordExport, WORD_EXTENSIONS } from './confluence-word';
import { convertConfluenceXml, isEntitiesXml } from './confluence-xml/confluence-xml-source';
import { elementToMarkdown } from './html-markdown';
import { isMimeDocument } from './mhtml';
import { addMarkdownDocument } from './markdown-source';
import {
  dirOf,
  extensionOf,
  isLooseUpload,
  SourceCollector,
  SourceOptions,
} from './source-context';

const HTML = new Set(['.html', '.htm']);
const MARKDOWN = new Set(['.md', '.markdown']);
const FOREIGN = new Set(['.json', '.txt']);
const PAGE_ID = /(?:^|_)(\d+)\.html?$/i;
const ATTACHMENT_PATH = /(?:^|\/)attachments\/(\d+)\/(\d+)(\.[^/]*)?$/;

/** Confluence chrome and macros that carry no page content. */
const DROPPED = [
  'style',
  'script',
  '.toc-macro',
  '.plugin_attachments_upload_container',
  '.hidden',
  '#breadcrumb-section',
  '.page-metadata',
  'img.userLogo',
  '.aui-icon',
  '.expand-icon',
  '.pageSectionHeader',
  '.recently-updated',
  '.contributors',
].join(', ');

interface ParsedPage {
  path: string;
  title: string;
  content: string;
}

/**
 * Confluence HTML pages and space exports (loose or zipped): title from `#title-text` without
 * the `Space : ` prefix, body from `#main-content`, hierarchy from the export's `index.html`
 * (a child's path is its parent's path plus its own title), attachments kept as files the
 * page links to.
 */
export async function convertConfluence(
  entries: SourceEntry[],
  options: SourceOptions,
): Promise<ConversionResult> {
  const out = new SourceCollector(options);
  const tick = pacer();
  const pages: SourceEntry[] = [];
  const indexes: SourceEntry[] = [];
  const markdown: SourceEntry[] = [];
  // Confluence's XML export: entities.xml with attachments/ beside it.
  const xmlExports = entries.filter((e) => isEntitiesXml(e.path));
  const xmlRoots = xmlExports.map((e) => (dirOf(e.path) ? `${dirOf(e.path)}/` : ''));
  const inXmlExport = (path: string) =>
    xmlRoots.some(
      (root) =>
        path.startsWith(root) &&
        /^(?:entities\.xml|exportDescriptor\.properties|attachments\/)/.test(
          path.slice(root.length),
        ),
    );
  for (const entry of entries) {
    if (inXmlExport(entry.path)) {
      if (!isEntitiesXml(entry.path)) out.assets.set(entry.path, entry);
      continue;
    }
    const ext = extensionOf(entry.path);
    if (WORD_EXTENSIONS.has(ext) || (HTML.has(ext) && isMimeDocument(entry.data))) {
      // "Export to Word" (MHTML), also when renamed to .html: decoded, never read as HTML.
      const word = readWordExport(entry);
      if (typeof word === 'string') {
        out.reject(entry.path, 'confluence_word_export', `"${entry.path}" ${word}.`);
        continue;
      }
      pages.push({ ...entry, data: Buffer.from(word.html) });
      for (const file of word.files) out.assets.set(file.path, file);
    } else if (HTML.has(ext)) {
      (posix.basename(entry.path).toLowerCase() === 'index.html' ? indexes : pages).push(entry);
    } else if (MARKDOWN.has(ext)) {
      markdown.push(entry);
    } else if (isLooseUpload(entry) && FOREIGN.has(ext)) {
      out.reject(
        entry.path,
        'wrong_format',
        `"${entry.path}" is not a Confluence HTML page, Confluence-converted Markdown or a space export ZIP.`,
      );
    } else {
      out.assets.set(entry.path, entry);
    }
  }

  // Progress counts entries: the ones sorted above are done; pages, Markdown files and XML
  // exports count as they are converted.
  let done = entries.length - pages.length - markdown.length - xmlExports.length;
  const advance = () => options.onProgress?.(++done);
  options.onProgress?.(done);

  const pageById = new Map<string, string>();
  for (const page of pages) {
    const id = PAGE_ID.exec(posix.basename(page.path))?.[1];
    if (id) pageById.set(`${dirOf(page.path)}|${id}`, page.path);
  }
  const attachmentById = new Map<string, string>();
  for (const path of out.assets.keys()) {
    const match = ATTACHMENT_PATH.exec(path);
    if (!match) continue;
    const root = path.slice(0, path.length - match[0].length);
    attachmentById.set(`${root}|${match[1]}/${match[2]}`, path);
  }

  const parents = new Map<string, string>();
  for (const index of indexes) {
    const text = out.text(index);
    if (text !== undefined) readHierarchy(parseHtml(text), dirOf(index.path), parents);
  }

  const parsed = new Map<string, ParsedPage>();
  for (const page of pages) {
    await tick();
    advance();
    const text = out.text(page);
    if (text === undefined) continue;
    const result = convertPage(page.path, text, { pageById, attachmentById });
    if (typeof result === 'string') {
      out.reject(page.path, 'confluence_invalid_page', `"${page.path}" ${result}.`);
      continue;
    }
    parsed.set(page.path, result);
  }

  const slugCache = new Map<string, string | undefined>();
  const slugOf = (path: string, seen: Set<string>): string | undefined => {
    if (slugCache.has(path)) return slugCache.get(path);
    const page = parsed.get(path)!;
    const own =
      slugifySegment(page.title) ||
      PAGE_ID.exec(posix.basename(path))?.[1] ||
      slugifySegment(posix.basename(path, posix.extname(path)));
    const parent = parents.get(path);
    let slug: string | undefined = own;
    if (parent && parsed.has(parent) && !seen.has(parent)) {
      seen.add(path);
      const parentSlug = slugOf(parent, seen);
      slug = parentSlug ? `${parentSlug}/${own}` : own;
    }
    slugCache.set(path, slug);
    return slug;
  };
  // Titles are unique within a space, not across spaces or loose pages: a second page with
  // the same path takes its file name instead (`userlink-demo`), so no page is lost.
  const taken = new Set<string>();
  for (const page of parsed.values()) {
    let slug = slugOf(page.path, new Set());
    if (slug !== undefined && taken.has(slug)) {
      const stem = slugifySegment(posix.basename(page.path, posix.extname(page.path)));
      const alternative = stem ? [...slug.split('/').slice(0, -1), stem].join('/') : undefined;
      if (alternative && !taken.has(alternative)) slug = alternative;
    }
    if (slug !== undefined) taken.add(slug);
    out.add({
      sourcePath: page.path,
      slug,
      title: page.title,
      content: page.content,
      baseDir: dirOf(page.path),
      refKeys: [page.path],
    });
  }
  for (const entities of xmlExports) {
    await convertConfluenceXml(entities, new Map(out.assets), out, {
      includeBlogPosts: options.includeBlogPosts === true,
      jiraBaseUrl: options.jiraBaseUrl,
    });
    advance();
  }
  // Markdown converted from Confluence: chrome removed (cleanConfluence, on by default here).
  for (const entry of markdown) {
    await tick();
    addMarkdownDocument(out, entry);
    advance();
  }
  return out;
}

/** `index.html` lists the pages as nested `<ul><li><a>`: a link's parent is the enclosing item's link. */
function readHierarchy(doc: DomDocument, dir: string, parents: Map<string, string>): void {
  for (const link of all(doc, 'li > a[href]')) {
    const href = link.getAttribute('href') ?? '';
    if (/^[a-z]+:|^\/|^#/i.test(href)) continue;
    const item = link.parentElement;
    const parentItem = item?.parentElement?.closest('li');
    const parentLink = parentItem
      ? Array.from(parentItem.children).find((c) => c.tagName === 'A' && c.hasAttribute('href'))
      : undefined;
    if (!parentLink) continue;
    parents.set(
      posix.join(dir, decode(href)),
      posix.join(dir, decode(parentLink.getAttribute('href') ?? '')),
    );
  }
}

function decode(href: string): string {
  try {
    return decodeURIComponent(href.split(/[?#]/)[0]);
  } catch {
    return href.split(/[?#]/)[0];
  }
}

interface PageContext {
  pageById: Map<string, string>;
  attachmentById: Map<string, string>;
}

function titleOf(doc: DomDocument): string | undefined {
  const raw =
    doc.querySelector('#title-text')?.textContent ??
    doc.querySelector('title')?.textContent ??
    doc.querySelector('h1')?.textContent ??
    '';
  const title = raw.replace(/\s+/g, ' ').trim();
  const separator = title.indexOf(' : ');
  const bare = separator >= 0 ? title.slice(separator + 3).trim() : title;
  return bare === '' ? undefined : bare;
}

function titleFromFileName(path: string): string | undefined {
  const name = posix
    .basename(path)
    .replace(/\.html?$/i, '')
    .replace(/_\d+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return /^\d*$/.test(name) ? undefined : name;
}

function convertPage(path: string, html: string, context: PageContext): ParsedPage | string {
  const doc = parseHtml(html);
  // Some exported pages lack the title heading; their file name still carries the title.
  const title = titleOf(doc) ?? titleFromFileName(path);
  if (!title) return 'has no page title (#title-text or <title>)';
  const frame = doc.querySelector('#main-content');
  const main = frame ?? doc.body;
  if (!main) return 'has no page body (#main-content)';
  // Without Confluence's page frame (a Word export, a saved page) the body opens with the
  // title as a heading: it is the title, not content.
  const first = frame ? null : main.querySelector('h1');
  if (first && (first.textContent ?? '').replace(/\s+/g, ' ').trim() === title) first.remove();
  const dir = dirOf(path);
  for (const junk of all(main, DROPPED)) junk.remove();
  for (const user of all(main, 'a.confluence-userlink')) {
    user.replaceWith(
      doc.createTextNode(user.textContent?.trim() || user.getAttribute('data-username') || ''),
    );
  }
  const linked = new Set<string>();
  for (const img of all(main, 'img')) {
    const target = rewriteImage(img, dir, context, doc);
    if (target) linked.add(target);
  }
  for (const a of all(main, 'a[href]')) {
    const target = rewriteLink(a, dir, context);
    if (target) linked.add(target);
  }
  let content = elementToMarkdown(main);

  // Attachments listed under the page but not used in its body are still carried over.
  const listed: string[] = [];
  for (const a of all(doc, '.greybox a[href]')) {
    const href = a.getAttribute('href') ?? '';
    if (!/^attachments\//.test(href) || linked.has(href)) continue;
    const name = (a.textContent ?? '').trim() || posix.basename(href);
    listed.push(`- [${name.replace(/([[\]\\])/g, '\\$1')}](${encodeURI(href)})`);
    linked.add(href);
  }
  if (listed.length) content = `${content}\n\n## Attachments\n\n${listed.join('\n')}`;
  return { path, title, content: content.trim() };
}

function attachmentPath(
  el: DomElement,
  dir: string,
  context: PageContext,
  url: string,
): string | undefined {
  if (/^attachments\//.test(url)) return url;
  const container = el.getAttribute('data-linked-resource-container-id');
  const id = el.getAttribute('data-linked-resource-id');
  const fromIds =
    container && id ? context.attachmentById.get(`${dir}|${container}/${id}`) : undefined;
  if (fromIds) return posix.relative(dir, fromIds);
  // Server URLs the export lacks: /download/attachments/<container>/<name>.
  return undefined;
}

function rewriteImage(
  img: DomElement,
  dir: string,
  context: PageContext,
  doc: DomDocument,
): string | undefined {
  const src = img.getAttribute('data-image-src') ?? img.getAttribute('src') ?? '';
  if (img.classList.contains('emoticon')) {
    img.replaceWith(doc.createTextNode(img.getAttribute('alt') ?? ''));
    return undefined;
  }
  if (
    src === '' ||
    src.startsWith('data:') ||
    /(^|\/)rest\/documentConversion\//.test(src) ||
    /^images\/icons\//.test(src)
  ) {
    img.remove();
    return undefined;
  }
  const alias = img.getAttribute('data-linked-resource-default-alias');
  if (!img.getAttribute('alt') && alias) img.setAttribute('alt', alias);
  const local = attachmentPath(img, dir, context, src);
  if (local) {
    img.setAttribute('src', encodeURI(local));
    return local;
  }
  if (/^\/download\//.test(src)) img.setAttribute('src', src.split('?')[0]);
  return undefined;
}

function rewriteLink(a: DomElement, dir: string, context: PageContext): string | undefined {
  const href = a.getAttribute('href') ?? '';
  const isAttachment =
    a.getAttribute('data-linked-resource-type') === 'attachment' ||
    /\/download\/attachments\//.test(href);
  if (isAttachment) {
    const local = attachmentPath(a, dir, context, href);
    if (local) {
      if (!(a.textContent ?? '').trim())
        a.textContent =
          a.getAttribute('data-linked-resource-default-alias') ?? posix.basename(local);
      a.setAttribute('href', encodeURI(local));
      return local;
    }
    return undefined;
  }
  const pageId = /[?&]pageId=(\d+)/.exec(href)?.[1];
  if (pageId) {
    const target = context.pageById.get(`${dir}|${pageId}`);
    if (target) a.setAttribute('href', encodeURI(posix.relative(dir, target)));
  }
  return undefined;
}
