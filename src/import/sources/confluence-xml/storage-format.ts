import { all, DomDocument, DomElement, DomNode, parseHtml } from '../dom';
import { EMOTICONS } from '../emoticons';
import { elementToMarkdown } from '../html-markdown';
import { convertMacro, MacroContext, pageRefOf, unresolvedPage } from './storage-macros';

/**
 * Confluence storage format (the XHTML of page bodies in an XML export) → Markdown.
 * Documented by Atlassian ("Confluence Storage Format"): ordinary XHTML plus `ac:` elements
 * (macros, images, links, task lists, emoticons, layouts) and `ri:` resource identifiers
 * (pages, attachments, users, URLs). Each `ac:` construct is rewritten into the HTML the
 * shared HTML → Markdown conversion already understands (code panels, information panels,
 * GFM tables, task lists), then converted. Pure: all lookups go through the context.
 */
export type StorageContext = MacroContext;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The HTML parser reads storage XHTML once two XML-isms are made explicit: CDATA sections
 * (code bodies, plain-text link bodies) become escaped text, and self-closed elements
 * (`<ri:page ri:content-title="X"/>`, `<p/>`) get their end tags.
 */
export function storageToHtml(xhtml: string): string {
  return xhtml
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_all, text: string) => escapeText(text))
    .replace(
      /<([A-Za-z][\w:.-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'))?)*)\s*\/>/g,
      (all, name: string, attributes: string) =>
        VOID.has(name.toLowerCase()) ? all : `<${name}${attributes}></${name}>`,
    );
}

function element(doc: DomDocument, tag: string, text?: string): DomElement {
  const el = doc.createElement(tag);
  if (text !== undefined) el.textContent = text;
  return el;
}

/** Children that are elements named `name` (HTML parsing lower-cases names). */
export function childrenNamed(el: DomElement, name: string): DomElement[] {
  return Array.from(el.children).filter((c) => c.tagName.toLowerCase() === name);
}

function moveChildren(from: DomElement, to: DomElement): void {
  while (from.firstChild) to.appendChild(from.firstChild);
}

function unwrap(el: DomElement): void {
  el.replaceWith(...Array.from(el.childNodes));
}

/** Elements named `name`, innermost first (so nested constructs are done before their parents). */
function innermostFirst(root: DomElement, name: string): DomElement[] {
  return Array.from(root.getElementsByTagName(name)).reverse();
}

function resourceLink(link: DomElement, context: StorageContext): void {
  const doc = link.ownerDocument;
  const anchor = link.getAttribute('ac:anchor');
  const body =
    childrenNamed(link, 'ac:link-body')[0] ?? childrenNamed(link, 'ac:plain-text-link-body')[0];
  const page =
    childrenNamed(link, 'ri:page')[0] ??
    childrenNamed(link, 'ri:blog-post')[0] ??
    childrenNamed(link, 'ri:content-entity')[0];
  const attachment = childrenNamed(link, 'ri:attachment')[0];
  const user = childrenNamed(link, 'ri:user')[0];
  const url = childrenNamed(link, 'ri:url')[0];
  const space = childrenNamed(link, 'ri:space')[0];
  let href: string | undefined;
  let label = '';
  if (user) {
    link.replaceWith(doc.createTextNode(context.user(user)));
    return;
  }
  if (page) {
    const ref = pageRefOf(page);
    const found = context.page(ref);
    href = found?.href ?? unresolvedPage(ref);
    label = found?.title ?? ref.title ?? (ref.id ? `Confluence page ${ref.id}` : '');
  } else if (attachment) {
    const name = attachment.getAttribute('ri:filename') ?? '';
    href = context.attachment(name, attachmentOwner(attachment));
    label = name;
  } else if (url) {
    href = url.getAttribute('ri:value') ?? undefined;
    label = href ?? '';
  } else if (space) {
    // A link to a space lands on its home page when the export holds it.
    const spaceKey = space.getAttribute('ri:space-key') ?? '';
    const home = spaceKey ? context.page({ spaceKey }) : undefined;
    href = home?.href;
    label = home?.title ?? spaceKey;
  } else if (anchor) {
    label = anchor;
  }
  if (anchor) href = `${href ?? ''}#${context.anchor(anchor)}`;
  const a = element(doc, href ? 'a' : 'span');
  if (href) a.setAttribute('href', href);
  if (body && (body.textContent ?? '').trim() !== '') moveChildren(body, a);
  else a.textContent = label;
  link.replaceWith(a);
}

/** `<ri:attachment ri:filename="x"><ri:page ri:content-title="Other"/></ri:attachment>`: another page's file. */
function attachmentOwner(attachment: DomElement): { title?: string; spaceKey?: string } {
  const page = childrenNamed(attachment, 'ri:page')[0];
  if (!page) return {};
  return {
    title: page.getAttribute('ri:content-title') ?? undefined,
    spaceKey: page.getAttribute('ri:space-key') ?? undefined,
  };
}

function image(img: DomElement, context: StorageContext): void {
  const doc = img.ownerDocument;
  const attachment = childrenNamed(img, 'ri:attachment')[0];
  const url = childrenNamed(img, 'ri:url')[0];
  let src: string | undefined;
  let name = '';
  if (attachment) {
    name = attachment.getAttribute('ri:filename') ?? '';
    src = context.attachment(name, attachmentOwner(attachment));
  } else if (url) {
    src = url.getAttribute('ri:value') ?? undefined;
  }
  if (!src) {
    img.remove();
    return;
  }
  const out = element(doc, 'img');
  out.setAttribute('src', src);
  out.setAttribute('alt', img.getAttribute('ac:alt') ?? img.getAttribute('ac:title') ?? name);
  img.replaceWith(out);
}

function taskList(list: DomElement): void {
  const doc = list.ownerDocument;
  const ul = element(doc, 'ul');
  for (const task of childrenNamed(list, 'ac:task')) {
    const li = element(doc, 'li');
    const box = element(doc, 'input');
    box.setAttribute('type', 'checkbox');
    const status = childrenNamed(task, 'ac:task-status')[0]?.textContent?.trim();
    if (status === 'complete') box.setAttribute('checked', '');
    li.appendChild(box);
    const body = childrenNamed(task, 'ac:task-body')[0];
    if (body) moveChildren(body, li);
    ul.appendChild(li);
  }
  list.replaceWith(ul);
}

/** Converts one page body; counts every macro met in `context.macros`. */
export function storageToMarkdown(xhtml: string, context: StorageContext): string {
  const doc = parseHtml(`<!DOCTYPE html><html><body>${storageToHtml(xhtml)}</body></html>`);
  const body = doc.body;
  for (const placeholder of all(body, 'script, style')) placeholder.remove();
  for (const el of innermostFirst(body, 'ac:placeholder')) el.remove();
  for (const el of innermostFirst(body, 'ac:emoticon')) {
    const name = el.getAttribute('ac:name') ?? '';
    el.replaceWith(
      doc.createTextNode(EMOTICONS[name] ?? el.getAttribute('ac:emoji-fallback') ?? ''),
    );
  }
  for (const el of innermostFirst(body, 'time')) {
    el.replaceWith(doc.createTextNode(el.getAttribute('datetime') ?? el.textContent ?? ''));
  }
  for (const el of innermostFirst(body, 'ac:link')) resourceLink(el, context);
  // Plain links to Confluence's addresses of a page of the export become links to that page.
  for (const a of all(body, 'a[href]')) {
    const target = context.address(a.getAttribute('href') ?? '');
    if (target !== undefined) a.setAttribute('href', target);
  }
  for (const el of innermostFirst(body, 'ac:image')) image(el, context);
  for (const el of innermostFirst(body, 'ac:task-list')) taskList(el);
  for (const el of innermostFirst(body, 'ac:adf-extension')) {
    const fallback = childrenNamed(el, 'ac:adf-fallback')[0];
    if (fallback) el.replaceWith(...Array.from(fallback.childNodes));
    else el.remove();
  }
  // Macros, innermost first: a code block inside an expand inside a panel.
  const macros = [
    ...Array.from(body.getElementsByTagName('ac:structured-macro')),
    ...Array.from(body.getElementsByTagName('ac:macro')),
  ];
  for (const macro of macros.reverse()) convertMacro(macro, context);
  // Layout wrappers and whatever Confluence-specific element is left: content kept.
  for (const name of [
    'ac:layout',
    'ac:layout-section',
    'ac:layout-cell',
    'ac:inline-comment-marker',
    'ac:rich-text-body',
    'ac:plain-text-body',
  ])
    for (const el of innermostFirst(body, name)) unwrap(el);
  for (const el of leftovers(body)) {
    if (/^ri:/.test(el.tagName.toLowerCase()) || el.tagName.toLowerCase() === 'ac:parameter')
      el.remove();
    else unwrap(el);
  }
  return elementToMarkdown(body);
}

function leftovers(root: DomElement): DomElement[] {
  const found: DomElement[] = [];
  const walk = (node: DomNode): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType !== 1) continue;
      const el = child as DomElement;
      walk(el);
      if (/^(?:ac|ri|at):/i.test(el.tagName)) found.push(el);
    }
  };
  walk(root);
  return found;
}
