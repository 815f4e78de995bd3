import { posix } from 'node:path';
import { all, DomDocument, DomElement, parseHtml } from './dom';
import { elementToMarkdown } from './html-markdown';
import { dirOf } from './source-context';

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

export interface ParsedPage {
  path: string;
  title: string;
  content: string;
}

/** Where an exported page's links point: pages and attachments by their Confluence ids. */
export interface PageContext {
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

export function convertPage(path: string, html: string, context: PageContext): ParsedPage | string {
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
