import sanitizeHtml from 'sanitize-html';
import TurndownService from 'turndown';
import {
  confluenceLanguage,
  EMPHASIS_TAGS,
  fenceLanguage,
  TABLE_TAGS,
} from '../../pages/public-api';
import { all, DomElement, DomNode, parseHtml } from './dom';

/**
 * HTML → Markdown with turndown plus the rules Confluence (and Wiki.js HTML pages) need:
 * code panels keep their language, information panels become callouts (`> [!NOTE]`), tables
 * become GFM tables when they can and sanitised HTML tables when they cannot (merged cells,
 * block content in cells), a single-cell layout table is unwrapped.
 */
const CALLOUT_BY_CLASS: [RegExp, string][] = [
  [/confluence-information-macro-(information|info)\b/, 'NOTE'],
  [/confluence-information-macro-tip\b/, 'TIP'],
  [/confluence-information-macro-note\b/, 'WARNING'],
  [/confluence-information-macro-warning\b/, 'CAUTION'],
];

function languageOf(pre: DomElement): string {
  const params = pre.getAttribute('data-syntaxhighlighter-params') ?? '';
  const brush = /brush:\s*([^;]+)/.exec(params)?.[1];
  if (brush !== undefined) return confluenceLanguage(brush);
  const fromClass = /(?:^|\s)(?:language|lang)-([\w#+-]+)/.exec(
    `${pre.className} ${pre.querySelector('code')?.className ?? ''}`,
  )?.[1];
  return fromClass ? fenceLanguage(fromClass.toLowerCase()) : '';
}

function escapeHtmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function fence(code: string, language: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const marker = '`'.repeat(longest + 1);
  return `\n\n${marker}${language}\n${code.replace(/\n$/, '')}\n${marker}\n\n`;
}

function quote(markdown: string, head: string[]): string {
  const lines = [...head, ...markdown.trim().split('\n')];
  return `\n\n${lines.map((l) => (l === '' ? '>' : `> ${l}`)).join('\n')}\n\n`;
}

function text(node: DomNode): string {
  return (node.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const BLOCK_IN_CELL =
  'table, ul, ol, pre, blockquote, h1, h2, h3, h4, h5, h6, div.code, div.panel, hr';

function gfmAble(table: DomElement): boolean {
  for (const cell of all(table, 'td, th')) {
    if (
      Number(cell.getAttribute('colspan') ?? '1') > 1 ||
      Number(cell.getAttribute('rowspan') ?? '1') > 1
    )
      return false;
    if (cell.querySelector(BLOCK_IN_CELL)) return false;
  }
  return true;
}

function rowsOf(table: DomElement): DomElement[] {
  return all(table, 'tr').filter((row) => row.closest('table') === table);
}

function cellsOf(row: DomElement): DomElement[] {
  return Array.from(row.children).filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
}

const TABLE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    ...TABLE_TAGS,
    'p',
    'br',
    ...EMPHASIS_TAGS,
    'code',
    'pre',
    'a',
    'ul',
    'ol',
    'li',
    'img',
    'sub',
    'sup',
    'span',
    'h3',
    'h4',
    'h5',
    'h6',
    'hr',
    'blockquote',
  ],
  allowedAttributes: {
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    a: ['href'],
    img: ['src', 'alt'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  exclusiveFilter: (frame) => frame.tag === 'span' && !frame.text.trim(),
  transformTags: {
    b: 'strong',
    i: 'em',
    span: (_tag, attribs) => ({ tagName: 'span', attribs: { ...attribs } }),
  },
};

function createService(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
    br: '\\',
  });
  service.remove([
    'style',
    'script',
    'noscript',
    'template',
    'iframe',
    'form',
    'input',
    'button',
    'select',
    'textarea',
    'colgroup',
  ] as never);
  // Turndown tries the rules added last first: this order is the precedence.
  addCodeRules(service);
  addPanelRules(service);
  addIncludeRules(service);
  addHtmlRules(service);
  return service;
}

function element(node: TurndownService.Node): DomElement {
  return node as unknown as DomElement;
}

function isDivWithClass(node: TurndownService.Node, name: string): boolean {
  return node.nodeName === 'DIV' && element(node).className.split(/\s+/).includes(name);
}

/** Code panels and `<pre>` become fences that keep their language. */
function addCodeRules(service: TurndownService): void {
  service.addRule('codePanel', {
    filter: (node) => isDivWithClass(node, 'code') && isDivWithClass(node, 'panel'),
    replacement: (_content, node) => {
      const el = element(node);
      // A panel may hold several <pre> blocks: each becomes its own fence.
      const blocks = all(el, 'pre');
      const header = el.querySelector('.codeHeader');
      const title = header ? text(header) : '';
      if (blocks.length === 0) return '';
      const fences = blocks.map((pre) => fence(pre.textContent ?? '', languageOf(pre))).join('');
      return `${title ? `\n\n**${title.replace(/\*/g, '\\*')}**` : ''}${fences}`;
    },
  });
  service.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node) => {
      const el = element(node);
      return fence(el.textContent ?? '', languageOf(el));
    },
  });
}

/**
 * Confluence's "include page", "excerpt include" and "excerpt" macros (storage-macros.ts) as
 * kb's include lines and excerpt containers.
 */
function addIncludeRules(service: TurndownService): void {
  service.addRule('include', {
    filter: (node) => isDivWithClass(node, 'kb-include-macro'),
    replacement: (_content, node) => {
      const el = element(node);
      const excerpt = el.getAttribute('data-excerpt');
      return `\n\n![[${el.getAttribute('data-target') ?? ''}${excerpt ? `#${excerpt}` : ''}]]\n\n`;
    },
  });
  service.addRule('excerpt', {
    filter: (node) => isDivWithClass(node, 'kb-excerpt-macro'),
    replacement: (content, node) =>
      `\n\n:::excerpt ${element(node).getAttribute('data-name') ?? 'excerpt'}\n\n${content.trim()}\n\n:::\n\n`,
  });
}

/** Confluence's information panels become callouts, plain panels quotes, expand titles bold. */
function addPanelRules(service: TurndownService): void {
  service.addRule('informationPanel', {
    filter: (node) => isDivWithClass(node, 'confluence-information-macro'),
    replacement: (_content, node) => {
      const el = element(node);
      const type = CALLOUT_BY_CLASS.find(([re]) => re.test(el.className))?.[1] ?? 'NOTE';
      const title = el.querySelector('.confluence-information-macro-title, .title');
      const body = el.querySelector('.confluence-information-macro-body') ?? el;
      const head = [`[!${type}]`];
      if (title && text(title)) head.push(`**${text(title)}**`, '');
      return quote(service.turndown(body as never), head);
    },
  });
  service.addRule('panel', {
    filter: (node) => isDivWithClass(node, 'panel') && !isDivWithClass(node, 'code'),
    replacement: (content, node) => {
      const el = element(node);
      const header = el.querySelector('.panelHeader');
      const body = el.querySelector('.panelContent');
      const markdown = body ? service.turndown(body as never) : content;
      return quote(markdown, header && text(header) ? [`**${text(header)}**`, ''] : []);
    },
  });
  service.addRule('expandControl', {
    filter: (node) => isDivWithClass(node, 'expand-control'),
    replacement: (_content, node) => {
      const label = text(element(node));
      return label ? `\n\n**${label}**\n\n` : '';
    },
  });
}

/** HTML that turndown leaves alone or flattens: details, strikethrough, task items, tables. */
function addHtmlRules(service: TurndownService): void {
  service.addRule('details', {
    filter: 'details' as never,
    replacement: (_content, node) => {
      const el = element(node);
      const summary = Array.from(el.children).find((c) => c.tagName === 'SUMMARY');
      const title = summary ? text(summary) : 'Details';
      summary?.remove();
      const body = service.turndown(el as never).trim();
      return `\n\n<details>\n<summary>${escapeHtmlText(title)}</summary>\n\n${body}\n\n</details>\n\n`;
    },
  });
  service.addRule('strikethrough', {
    filter: ['del', 's', 'strike'] as never,
    replacement: (content) => `~~${content}~~`,
  });
  service.addRule('taskItem', {
    filter: (node) =>
      node.nodeName === 'INPUT' &&
      element(node).getAttribute('type') === 'checkbox' &&
      node.parentNode?.nodeName === 'LI',
    replacement: (_content, node) => (element(node).hasAttribute('checked') ? '[x] ' : '[ ] '),
  });
  service.addRule('table', {
    filter: 'table',
    replacement: (_content, node) => convertTable(element(node), service),
  });
}

/** Code panels inside an HTML table keep their language: `<pre><code class="language-x">`. */
function codePanelsAsPre(root: DomElement): void {
  for (const panel of all(root, 'div.code.panel')) {
    const doc = panel.ownerDocument;
    const replacement: DomNode[] = [];
    const header = panel.querySelector('.codeHeader');
    if (header && text(header)) {
      const caption = doc.createElement('p');
      const strong = doc.createElement('strong');
      strong.textContent = text(header);
      caption.appendChild(strong);
      replacement.push(caption);
    }
    for (const source of all(panel, 'pre')) {
      const pre = doc.createElement('pre');
      const code = doc.createElement('code');
      const language = languageOf(source);
      if (language) code.setAttribute('class', `language-${language}`);
      code.textContent = source.textContent;
      pre.appendChild(code);
      replacement.push(pre);
    }
    panel.replaceWith(...replacement);
  }
}

function convertTable(table: DomElement, service: TurndownService): string {
  const rows = rowsOf(table);
  const cells = rows.flatMap(cellsOf);
  if (cells.length === 0) return '';
  // Confluence uses one-cell tables as coloured boxes around a heading or a note.
  if (cells.length === 1) return `\n\n${service.turndown(cells[0] as never)}\n\n`;
  if (!gfmAble(table)) {
    codePanelsAsPre(table);
    return `\n\n${sanitizeHtml(table.outerHTML, TABLE_HTML).replace(/\n\s*\n/g, '\n')}\n\n`;
  }
  const grid = rows.map((row) =>
    cellsOf(row).map((cell) =>
      service
        .turndown(cell as never)
        .replace(/\\?\n+/g, ' ')
        .replace(/\|/g, '\\|')
        .trim(),
    ),
  );
  const width = Math.max(...grid.map((r) => r.length));
  const line = (r: string[]): string =>
    `| ${Array.from({ length: width }, (_, i) => r[i] ?? '').join(' | ')} |`;
  const [head, ...body] = grid;
  return `\n\n${[line(head), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`, ...body.map(line)].join('\n')}\n\n`;
}

let shared: TurndownService | undefined;

export function turndownService(): TurndownService {
  shared ??= createService();
  return shared;
}

/** Converts an element to Markdown (the element is tidied in place first). */
export function elementToMarkdown(element: DomElement): string {
  tidyDom(element);
  return tidy(turndownService().turndown(element as never));
}

function isBlank(node: DomNode | null | undefined): boolean {
  return !!node && node.nodeType === 3 && (node.textContent ?? '').trim() === '';
}

/**
 * Editors leave markup that turns into noise: a `<br>` closing a paragraph or a bold run
 * (`**text\\**`), bold inside bold or inside headings, empty paragraphs.
 */
function tidyDom(root: DomElement): void {
  for (const br of all(root, 'br')) {
    let next = (br as unknown as { nextSibling: DomNode | null }).nextSibling;
    while (isBlank(next)) next = (next as unknown as { nextSibling: DomNode | null }).nextSibling;
    if (!next) br.remove();
  }
  for (const inner of all(
    root,
    'strong strong, b b, strong b, b strong, h1 strong, h2 strong, h3 strong, h4 strong, h5 strong, h6 strong, h1 b, h2 b, h3 b, h4 b, h5 b, h6 b',
  )) {
    inner.replaceWith(...Array.from(inner.childNodes));
  }
  for (const p of all(root, 'p')) {
    if ((p.textContent ?? '').trim() === '' && !p.querySelector('img, table, pre, iframe'))
      p.remove();
  }
}

export function htmlToMarkdown(html: string): string {
  const doc = parseHtml(`<!DOCTYPE html><html><body>${html}</body></html>`);
  return elementToMarkdown(doc.body);
}

function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
