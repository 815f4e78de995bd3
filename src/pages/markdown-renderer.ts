import { Injectable } from '@nestjs/common';
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
import taskLists from 'markdown-it-task-lists';
import sanitizeHtml from 'sanitize-html';
import { internalHref, resolveInternalHref } from './links';
import { substituteVariables } from './variables';

interface RenderEnv {
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
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
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
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'colgroup',
    'col',
    'a',
    'img',
    'input',
    'details',
    'summary',
    'figure',
    'figcaption',
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
    abbr: ['title'],
    input: [{ name: 'type', values: ['checkbox'], multiple: false }, 'checked', 'disabled'],
  },
  allowedClasses: {
    code: ['language-*'],
    pre: ['language-*'],
    ul: ['contains-task-list'],
    ol: ['contains-task-list'],
    li: ['task-list-item'],
    input: ['task-list-item-checkbox'],
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

function createMarkdownIt(): Md {
  const md = new MarkdownIt({
    html: true,
    linkify: false,
    typographer: false,
    langPrefix: 'language-',
  });
  md.use(anchor, { tabIndex: false });
  md.use(taskLists, { enabled: false });
  // Internal links: resolve relative targets to `/slug` and collect them (link extraction).
  md.core.ruler.push('kb_internal_links', (state) => {
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
  });
  return md;
}

/**
 * The one Markdown renderer (page reads, preview, print, PDF): markdown-it with GFM tables,
 * task lists, heading anchors and `language-x` code classes; `{{name}}` resolved from
 * `variables` (unknown names stay); output sanitised.
 */
@Injectable()
export class MarkdownRenderer {
  private readonly md: Md = createMarkdownIt();

  render(
    markdown: string,
    variables: Record<string, string> = {},
    options: { baseSlug?: string | null } = {},
  ): string {
    const env: RenderEnv = { baseSlug: options.baseSlug ?? null };
    const html = this.md.render(substituteVariables(markdown, variables), env as unknown as MdEnv);
    return sanitizeHtml(html, SANITIZE);
  }

  /** Slugs of the internal pages the Markdown links to (anchors and queries stripped). */
  /**
   * Renders a page and extracts its links in one parse when the Markdown holds no variable
   * reference (the usual case); links always come from the Markdown as written.
   */
  renderPage(
    markdown: string,
    variables: Record<string, string>,
    baseSlug: string,
  ): { html: string; links: string[] } {
    const resolved = substituteVariables(markdown, variables);
    if (resolved !== markdown)
      return {
        html: this.render(markdown, variables, { baseSlug }),
        links: this.extractLinks(markdown, baseSlug),
      };
    const env: RenderEnv = { baseSlug, links: new Set<string>() };
    const html = sanitizeHtml(this.md.render(markdown, env as unknown as MdEnv), SANITIZE);
    return { html, links: [...env.links!] };
  }

  extractLinks(markdown: string, baseSlug: string | null): string[] {
    const env: RenderEnv = { baseSlug, links: new Set<string>() };
    this.md.parse(markdown, env as unknown as MdEnv);
    return [...env.links!];
  }
}
