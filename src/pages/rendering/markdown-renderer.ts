import { Injectable } from '@nestjs/common';
import MarkdownIt from 'markdown-it';
import taskLists from 'markdown-it-task-lists';
import sanitizeHtml from 'sanitize-html';
import { internalHref, resolveInternalHref } from './links';
import { substituteVariables } from '../model/variables';
import { CALLOUT_CLASSES, CALLOUT_TITLE_CLASS, calloutsPlugin } from './callouts';
import { codeLanguagePlugin } from './code-language';
import { headingIdsPlugin } from './heading-ids';
import { EMPHASIS_TAGS, TABLE_TAGS } from './html-tags';
import { insertRichContent, richContentPlugin, RichEnv } from './rich-content';

/** A rendered page: its sanitised HTML and the internal slugs it links to. */
export interface RenderedPage {
  html: string;
  links: string[];
}

interface RenderEnv extends RichEnv {
  [key: string]: unknown;
  baseSlug: string | null;
  links?: Set<string>;
}

/**
 * What survives sanitising. Raw HTML is allowed in Markdown (Confluence imports carry HTML
 * tables) but only this allow-list reaches the output: no script, no event handlers, no
 * frames/objects/forms, and links only with http(s), mailto and tel or relative URLs.
 */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'span',
    'div',
    ...EMPHASIS_TAGS,
    'ins',
    'sub',
    'sup',
    'mark',
    'kbd',
    'abbr',
    'small',
    'q',
    'cite',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    ...TABLE_TAGS,
    'colgroup',
    'col',
    'a',
    'img',
    'input',
    'details',
    'summary',
    'figure',
    'figcaption',
    'section',
    'nav',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'id'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    h1: ['id'],
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
    h5: ['id'],
    h6: ['id'],
    th: ['colspan', 'rowspan', 'style'],
    td: ['colspan', 'rowspan', 'style'],
    ol: ['start'],
    li: ['id'],
    sup: ['id'],
    abbr: ['title'],
    input: [{ name: 'type', values: ['checkbox'], multiple: false }, 'checked', 'disabled'],
  },
  allowedClasses: {
    code: ['language-*'],
    pre: ['language-*'],
    // highlight.js token classes (and the second class of its scoped names, `title class_`).
    span: ['hljs-*', 'class_', 'function_', 'inherited__', 'language_', 'invoke__'],
    ul: ['contains-task-list'],
    ol: ['contains-task-list', 'footnotes-list'],
    li: ['task-list-item', 'footnote-item'],
    input: ['task-list-item-checkbox'],
    // Footnotes (markdown-it-footnote) and the [[toc]] table of contents.
    section: ['footnotes'],
    hr: ['footnotes-sep'],
    sup: ['footnote-ref'],
    a: ['footnote-backref'],
    nav: ['kb-toc'],
    // Callouts (GitHub alerts): exactly these classes, nothing a page could style itself with.
    div: CALLOUT_CLASSES,
    p: [CALLOUT_TITLE_CLASS],
  },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'title',
    'iframe',
    'object',
    'embed',
    'template',
    'xmp',
    'noembed',
    'noframes',
  ],
};

type Md = InstanceType<typeof MarkdownIt>;
type MdEnv = NonNullable<Parameters<Md['render']>[1]>;

type CoreRule = Parameters<Md['core']['ruler']['push']>[1];

/** Internal links: resolve relative targets to `/slug` and collect them (link extraction). */
const internalLinks: CoreRule = (state) => {
  const env = state.env as unknown as RenderEnv;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    for (const token of block.children) {
      if (token.type !== 'link_open') continue;
      const href = token.attrGet('href');
      if (typeof href !== 'string') continue;
      const target = resolveInternalHref(href, env.baseSlug ?? null);
      if (!target) continue;
      token.attrSet('href', internalHref(target));
      env.links?.add(target.slug);
    }
  }
};

function createMarkdownIt(): Md {
  const md = new MarkdownIt({
    html: true,
    linkify: false,
    typographer: false,
    langPrefix: 'language-',
  });
  md.use(calloutsPlugin);
  md.use(codeLanguagePlugin);
  md.use(headingIdsPlugin);
  md.use(richContentPlugin);
  md.use(taskLists, { enabled: false });
  md.core.ruler.push('kb_internal_links', internalLinks);
  return md;
}

/**
 * A Markdown link needs `](` (inline link) or a reference definition `[label]:` somewhere:
 * without either, the Markdown has no link at all. (Autolinks `<scheme:...>` always carry a
 * scheme, so they are never internal links.)
 */
function mayHoldLinks(markdown: string): boolean {
  return markdown.includes('](') || markdown.includes(']:');
}

/**
 * The link extractor's markdown-it: the renderer's block and inline rules without the
 * plugins (heading anchors and task-list checkboxes add no links) and without rendering or
 * sanitising. Inline parsing, the costly part, runs only on the blocks that can hold a link:
 * those with `](` (inline link), or with `]` when the document defines references.
 */
function createLinkParser(): Md {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
  md.core.ruler.disable(['linkify', 'replacements', 'smartquotes', 'text_join']);
  md.core.ruler.at('inline', (state) => {
    const references = state.env as { references?: Record<string, unknown> };
    const anyReference = Object.keys(references.references ?? {}).length > 0;
    for (const token of state.tokens) {
      if (token.type !== 'inline') continue;
      const content = token.content;
      if (content.includes('](') || (anyReference && content.includes(']'))) {
        state.md.inline.parse(content, state.md, state.env, token.children ?? []);
      }
    }
  });
  md.core.ruler.push('kb_internal_links', internalLinks);
  return md;
}

/**
 * The one Markdown renderer (page reads, preview, print, PDF): markdown-it with GFM tables,
 * task lists, callouts (GitHub alerts), heading ids by GitHub's rules and `language-x` code
 * classes; `{{name}}` resolved from `variables` (unknown names stay); output sanitised.
 */
@Injectable()
export class MarkdownRenderer {
  private readonly md: Md = createMarkdownIt();
  private readonly linkParser: Md = createLinkParser();

  render(
    markdown: string,
    variables: Record<string, string> = {},
    options: { baseSlug?: string | null } = {},
  ): string {
    const env: RenderEnv = { baseSlug: options.baseSlug ?? null };
    const html = this.md.render(substituteVariables(markdown, variables), env as unknown as MdEnv);
    return insertRichContent(sanitizeHtml(html, SANITIZE), env);
  }

  /**
   * Renders a page and extracts its links in one parse when the Markdown holds no variable
   * reference (the usual case); links always come from the Markdown as written.
   */
  renderPage(markdown: string, variables: Record<string, string>, baseSlug: string): RenderedPage {
    const resolved = substituteVariables(markdown, variables);
    if (resolved !== markdown)
      return {
        html: this.render(markdown, variables, { baseSlug }),
        links: this.extractLinks(markdown, baseSlug),
      };
    const env: RenderEnv = { baseSlug, links: new Set<string>() };
    const html = sanitizeHtml(this.md.render(markdown, env as unknown as MdEnv), SANITIZE);
    return { html: insertRichContent(html, env), links: [...env.links!] };
  }

  /**
   * Slugs of the internal pages the Markdown links to (anchors and queries stripped), in
   * order of appearance: the same links a render finds, without rendering (imports, writes).
   */
  extractLinks(markdown: string, baseSlug: string | null): string[] {
    if (!mayHoldLinks(markdown)) return [];
    const env: RenderEnv = { baseSlug, links: new Set<string>() };
    this.linkParser.parse(markdown, env as unknown as MdEnv);
    return [...env.links!];
  }
}
