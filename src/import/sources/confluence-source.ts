import { posix } from 'node:path';
import { ConversionResult, SourceEntry } from '../import.types';
import { pacer } from '../pace';
import { slugifySegment } from '../slugs';
import { all, DomDocument, parseHtml } from './dom';
import { convertPage, PageContext, ParsedPage } from './confluence-page';
import { readWordExport, WORD_EXTENSIONS } from './confluence-word';
import { convertConfluenceXml, isEntitiesXml } from './confluence-xml/confluence-xml-source';
import { isMimeDocument } from './mhtml';
import { addMarkdownDocument } from './markdown-source';
import {
  dirOf,
  extensionOf,
  HTML_EXTENSIONS,
  isLooseUpload,
  MARKDOWN_EXTENSIONS,
  SourceCollector,
  SourceOptions,
} from './source-context';

const FOREIGN = new Set(['.json', '.txt']);
const PAGE_ID = /(?:^|_)(\d+)\.html?$/i;
const ATTACHMENT_PATH = /(?:^|\/)attachments\/(\d+)\/(\d+)(\.[^/]*)?$/;

/** The entries of one upload by what they become; everything else is an asset. */
interface SortedEntries {
  pages: SourceEntry[];
  indexes: SourceEntry[];
  markdown: SourceEntry[];
  /** Confluence's XML export: entities.xml with attachments/ beside it. */
  xmlExports: SourceEntry[];
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
  const { pages, indexes, markdown, xmlExports } = sortEntries(entries, out);

  // Progress counts entries: the ones sorted above are done; pages, Markdown files and XML
  // exports count as they are converted.
  let done = entries.length - pages.length - markdown.length - xmlExports.length;
  const advance = () => options.onProgress?.(++done);
  options.onProgress?.(done);

  const context = linkTargets(pages, out.assets);
  const parents = readHierarchies(indexes, out);
  const parsed = new Map<string, ParsedPage>();
  for (const page of pages) {
    await tick();
    advance();
    const result = parsePage(page, context, out);
    if (result) parsed.set(page.path, result);
  }
  addPages(parsed, parents, out);
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

function sortEntries(entries: SourceEntry[], out: SourceCollector): SortedEntries {
  const sorted: SortedEntries = {
    pages: [],
    indexes: [],
    markdown: [],
    xmlExports: entries.filter((e) => isEntitiesXml(e.path)),
  };
  const inXmlExport = xmlExportMember(sorted.xmlExports);
  for (const entry of entries) {
    if (inXmlExport(entry.path)) {
      if (!isEntitiesXml(entry.path)) out.assets.set(entry.path, entry);
    } else {
      sortEntry(entry, sorted, out);
    }
  }
  return sorted;
}

/** Whether a path belongs to one of the XML exports (its entities.xml, descriptor or attachments). */
function xmlExportMember(xmlExports: SourceEntry[]): (path: string) => boolean {
  const roots = xmlExports.map((e) => (dirOf(e.path) ? `${dirOf(e.path)}/` : ''));
  return (path) =>
    roots.some(
      (root) =>
        path.startsWith(root) &&
        /^(?:entities\.xml|exportDescriptor\.properties|attachments\/)/.test(
          path.slice(root.length),
        ),
    );
}

function sortEntry(entry: SourceEntry, sorted: SortedEntries, out: SourceCollector): void {
  const ext = extensionOf(entry.path);
  if (WORD_EXTENSIONS.has(ext) || (HTML_EXTENSIONS.has(ext) && isMimeDocument(entry.data))) {
    // "Export to Word" (MHTML), also when renamed to .html: decoded, never read as HTML.
    const word = readWordExport(entry);
    if (typeof word === 'string') {
      out.reject(entry.path, 'confluence_word_export', `"${entry.path}" ${word}.`);
      return;
    }
    sorted.pages.push({ ...entry, data: Buffer.from(word.html) });
    for (const file of word.files) out.assets.set(file.path, file);
  } else if (HTML_EXTENSIONS.has(ext)) {
    const isIndex = posix.basename(entry.path).toLowerCase() === 'index.html';
    (isIndex ? sorted.indexes : sorted.pages).push(entry);
  } else if (MARKDOWN_EXTENSIONS.has(ext)) {
    sorted.markdown.push(entry);
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

/** Exported links name pages and attachments by id (`pageId=`, `attachments/<page>/<id>`). */
function linkTargets(pages: SourceEntry[], assets: Map<string, SourceEntry>): PageContext {
  const pageById = new Map<string, string>();
  for (const page of pages) {
    const id = PAGE_ID.exec(posix.basename(page.path))?.[1];
    if (id) pageById.set(`${dirOf(page.path)}|${id}`, page.path);
  }
  const attachmentById = new Map<string, string>();
  for (const path of assets.keys()) {
    const match = ATTACHMENT_PATH.exec(path);
    if (!match) continue;
    const root = path.slice(0, path.length - match[0].length);
    attachmentById.set(`${root}|${match[1]}/${match[2]}`, path);
  }
  return { pageById, attachmentById };
}

/** Each page's parent page, by path, from the exports' `index.html` files. */
function readHierarchies(indexes: SourceEntry[], out: SourceCollector): Map<string, string> {
  const parents = new Map<string, string>();
  for (const index of indexes) {
    const text = out.text(index);
    if (text !== undefined) readHierarchy(parseHtml(text), dirOf(index.path), parents);
  }
  return parents;
}

function parsePage(
  page: SourceEntry,
  context: PageContext,
  out: SourceCollector,
): ParsedPage | undefined {
  const text = out.text(page);
  if (text === undefined) return undefined;
  const result = convertPage(page.path, text, context);
  if (typeof result !== 'string') return result;
  out.reject(page.path, 'confluence_invalid_page', `"${page.path}" ${result}.`);
  return undefined;
}

/**
 * Titles are unique within a space, not across spaces or loose pages: a second page with the
 * same path takes its file name instead (`userlink-demo`), so no page is lost.
 */
function addPages(
  parsed: Map<string, ParsedPage>,
  parents: Map<string, string>,
  out: SourceCollector,
): void {
  const slugOf = hierarchySlugs(parsed, parents);
  const taken = new Set<string>();
  for (const page of parsed.values()) {
    let slug = slugOf(page.path);
    if (slug !== undefined && taken.has(slug)) {
      const stem = fileSlug(page.path);
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
}

/** A page's slug: its parent's slug (when the parent is imported too) plus its own title. */
function hierarchySlugs(
  parsed: Map<string, ParsedPage>,
  parents: Map<string, string>,
): (path: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  const slugOf = (path: string, seen: Set<string>): string | undefined => {
    if (cache.has(path)) return cache.get(path);
    const own =
      slugifySegment(parsed.get(path)!.title) ||
      PAGE_ID.exec(posix.basename(path))?.[1] ||
      fileSlug(path);
    const parent = parents.get(path);
    let slug: string | undefined = own;
    if (parent && parsed.has(parent) && !seen.has(parent)) {
      seen.add(path);
      const parentSlug = slugOf(parent, seen);
      slug = parentSlug ? `${parentSlug}/${own}` : own;
    }
    cache.set(path, slug);
    return slug;
  };
  return (path) => slugOf(path, new Set());
}

function fileSlug(path: string): string {
  return slugifySegment(posix.basename(path, posix.extname(path)));
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
