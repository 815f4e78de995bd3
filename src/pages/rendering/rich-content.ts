import type katexModule from 'katex';
import type MarkdownIt from 'markdown-it';
import mathPlugin from '@vscode/markdown-it-katex';
import container from 'markdown-it-container';
import { full as emoji } from 'markdown-it-emoji';
import footnote from 'markdown-it-footnote';
import { renderGraphviz, renderMermaid, startDiagramEngine, type DiagramBudget } from './diagrams';

/**
 * What engineers write beyond CommonMark and GFM, rendered at write time (the stored HTML
 * carries it, so the API, print and PDF show the same): highlighted code, math, footnotes, a
 * `[[toc]]` marker, collapsible sections, emoji shortcodes and diagrams (diagrams.ts).
 */

type Md = InstanceType<typeof MarkdownIt>;
type Token = ReturnType<Md['parse']>[number];
type CoreRule = Parameters<Md['core']['ruler']['push']>[1];
type RenderRule = NonNullable<Md['renderer']['rules']['fence']>;

/**
 * What a render collects beside the HTML: typeset math and drawn diagrams, put in place of
 * their placeholders after sanitising (below), and what the diagrams used of their limits.
 */
export interface RichEnv {
  inserts?: string[];
  diagrams?: DiagramBudget;
}

/** What kb uses of highlight.js (its own types pull the DOM library into the server build). */
interface Highlighter {
  getLanguage(name: string): unknown;
  highlight(
    code: string,
    options: { language: string; ignoreIllegals: boolean },
  ): { value: string };
}

// Loaded on first use: a process that renders no code or math never pays for highlight.js's
// 190 grammars or KaTeX (a few hundred milliseconds at start-up).
let hljs: Highlighter | undefined;
let katex: typeof katexModule | undefined;
const highlighter = (): Highlighter =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  (hljs ??= (require('highlight.js') as { default: Highlighter }).default);
const typesetter = (): typeof katexModule =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  (katex ??= require('katex') as typeof katexModule);

/**
 * Loads highlight.js and KaTeX and starts the diagram worker now: a render worker does it as
 * it starts, so that no render waits for it; the main thread loads them only if it ever renders
 * such Markdown itself (no render worker, or none ready yet).
 */
export function loadRichContentLibraries(): void {
  highlighter();
  typesetter();
  startDiagramEngine();
}

/** Whether Markdown may hold code to highlight or math to typeset (a worker renders it). */
export function mayHoldRichContent(markdown: string): boolean {
  return markdown.includes('```') || markdown.includes('~~~') || markdown.includes('$');
}

/** Names imports and other tools write for languages highlight.js knows by another name. */
const HIGHLIGHT_ALIASES: Record<string, string> = {
  vb: 'vbnet',
  'html/xml': 'xml',
  html: 'xml',
  shell: 'bash',
  sh: 'bash',
  zsh: 'bash',
  console: 'shell',
  pascal: 'delphi',
  terraform: 'hcl',
  tf: 'hcl',
  jsonc: 'json',
  dockerfile: 'dockerfile',
};

/** Code longer than this is shown plain: highlighting is linear, but not free. */
const MAX_HIGHLIGHT_CHARS = 200_000;

/**
 * Highlighted code as highlight.js token spans (`<span class="hljs-keyword">`), or '' for
 * markdown-it's own escaping (an unknown language, no language, or very long code).
 */
export function highlightCode(code: string, language: string): string {
  if (!language || code.length > MAX_HIGHLIGHT_CHARS) return '';
  const hl = highlighter();
  const name = HIGHLIGHT_ALIASES[language.toLowerCase()] ?? language;
  if (!hl.getLanguage(name)) return '';
  try {
    return hl.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    return '';
  }
}

/**
 * Math as KaTeX typesets it. Its output (classes, inline styles, MathML, SVG) is far wider than
 * the sanitiser's allow-list for authored HTML, so the renderer puts a placeholder that no page
 * can contain (markdown-it turns NUL into U+FFFD in its input) and typesets after sanitising.
 * KaTeX is safe with `trust: false` (no \href, \url, \includegraphics, \htmlClass...); sizes
 * and macro expansion are bounded so a hostile formula cannot blow up.
 */
const MAX_FORMULA_CHARS = 10_000;
// eslint-disable-next-line no-control-regex -- NUL marks a placeholder no page can contain
const PLACEHOLDER = /\u0000kbinsert:(\d+)\u0000/g;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function typesetMath(latex: string, display: boolean): string {
  const tag = display ? 'div' : 'span';
  try {
    if (latex.length > MAX_FORMULA_CHARS)
      throw new Error(`a formula may hold at most ${MAX_FORMULA_CHARS} characters`);
    const html = typesetter().renderToString(latex, {
      displayMode: display,
      throwOnError: true,
      trust: false,
      strict: 'ignore',
      maxSize: 50,
      maxExpand: 1000,
      output: 'htmlAndMathml',
    });
    // An HTML document puts <math> and <svg> in their namespaces itself: without the xmlns
    // URIs the stored HTML (and the print document) names no address at all.
    const bare = html.replace(
      / xmlns="http:\/\/www\.w3\.org\/(?:1998\/Math\/MathML|2000\/svg)"/g,
      '',
    );
    return `<${tag} class="kb-math">${bare}</${tag}>`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return (
      `<${tag} class="kb-math kb-math-error"><code>${escapeHtml(latex)}</code> ` +
      `<span class="kb-math-error-message">${escapeHtml(message)}</span></${tag}>`
    );
  }
}

/** A placeholder for HTML the renderer made itself (typeset math, a diagram). */
function placeholder(env: RichEnv, html: string): string {
  const inserts = (env.inserts ??= []);
  inserts.push(html);
  return `\u0000kbinsert:${inserts.length - 1}\u0000`;
}

function mathPlaceholder(env: RichEnv, latex: string, display: boolean): string {
  return placeholder(env, typesetMath(latex, display));
}

/** Puts the typeset math and the diagrams in place of their placeholders (after sanitising). */
export function insertRichContent(html: string, env: RichEnv): string {
  const inserts = env.inserts;
  if (!inserts || inserts.length === 0) return html;
  return html.replace(PLACEHOLDER, (_all, index: string) => inserts[Number(index)] ?? '');
}

/** `$…$`, `$$…$$` and ```` ```math ```` as placeholders for typeset math. */
function mathSupport(md: Md): void {
  md.use(mathPlugin);
  const inline: RenderRule = (tokens, idx, _options, env) =>
    mathPlaceholder(env as RichEnv, tokens[idx].content, false);
  const block: RenderRule = (tokens, idx, _options, env) =>
    mathPlaceholder(env as RichEnv, tokens[idx].content.trim(), true) + '\n';
  md.renderer.rules.math_inline = inline;
  md.renderer.rules.math_inline_block = block;
  md.renderer.rules.math_block = block;
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env, self) =>
    tokens[idx].info === 'math'
      ? block(tokens, idx, options, env, self)
      : fence(tokens, idx, options, env, self);
}

/**
 * ```` ```dot ````, ```` ```graphviz ```` and ```` ```mermaid ```` fences as placeholders for
 * their diagrams (or their source with a note): the SVG, like KaTeX's output, is sanitised by
 * its own allow-list (svg-sanitiser.ts), not the authored HTML's.
 */
function diagramSupport(md: Md): void {
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const language = token.info.trim().split(/\s+/)[0].toLowerCase();
    const rich = env as RichEnv;
    if (language !== 'dot' && language !== 'graphviz' && language !== 'mermaid')
      return fence(tokens, idx, options, env, self);
    const budget = (rich.diagrams ??= { drawn: 0, spentMs: 0 });
    if (language === 'mermaid')
      return placeholder(rich, renderMermaid(token.content, budget, budget.drawn));
    return placeholder(rich, renderGraphviz(language, token.content, budget, budget.drawn));
  };
}

/** The heading's text for the table of contents: text and code spans, no markup. */
function plainText(children: Token[] | null): string {
  let text = '';
  for (const child of children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline' || child.type === 'emoji')
      text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
  }
  return text.trim();
}

const TOC_MARKER = /^\[\[toc\]\]$/i;

/**
 * A paragraph holding only `[[toc]]` becomes a `<nav class="kb-toc">` of links to the page's
 * headings (with the ids heading-ids.ts gave them), nested by level.
 */
const tableOfContents: CoreRule = (state) => {
  const tokens = state.tokens;
  const markers: number[] = [];
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (
      tokens[i].type === 'paragraph_open' &&
      tokens[i + 1].type === 'inline' &&
      TOC_MARKER.test(tokens[i + 1].content.trim()) &&
      tokens[i + 2].type === 'paragraph_close'
    )
      markers.push(i);
  }
  if (markers.length === 0) return;
  const headings: { level: number; id: string; text: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i];
    const id = open.type === 'heading_open' ? open.attrGet('id') : null;
    if (typeof id === 'string' && id !== '')
      headings.push({
        level: Number(open.tag.slice(1)),
        id,
        text: plainText(tokens[i + 1].children),
      });
  }
  const html = tocHtml(headings);
  for (const at of markers.reverse()) {
    const token = new state.Token('html_block', '', 0);
    token.content = html;
    tokens.splice(at, 3, token);
  }
};

function tocHtml(headings: { level: number; id: string; text: string }[]): string {
  if (headings.length === 0) return '<nav class="kb-toc"></nav>\n';
  const top = Math.min(...headings.map((h) => h.level));
  let html = '<nav class="kb-toc">';
  let depth = 0;
  for (const heading of headings) {
    const level = heading.level - top + 1;
    if (level > depth) {
      // Deeper: a list inside the open item (or the first list).
      while (depth < level) {
        html += '<ul><li>';
        depth++;
      }
    } else {
      html += '</li>';
      while (depth > level) {
        html += '</ul></li>';
        depth--;
      }
      html += '<li>';
    }
    html += `<a href="#${escapeHtml(heading.id)}">${escapeHtml(heading.text)}</a>`;
  }
  while (depth > 0) {
    html += '</li></ul>';
    depth--;
  }
  return `${html}</nav>\n`;
}

/** `::: details Title` … `:::` as a collapsible `<details>` with `<summary>Title</summary>`. */
function detailsContainer(md: Md): void {
  md.use(container, 'details', {
    validate: (params: string) => /^details(\s|$)/.test(params.trim()),
    render: (tokens: Token[], idx: number) => {
      const token = tokens[idx];
      if (token.nesting !== 1) return '</details>\n';
      const title = token.info.trim().slice('details'.length).trim() || 'Details';
      return `<details><summary>${md.utils.escapeHtml(title)}</summary>\n`;
    },
  });
}

export function richContentPlugin(md: Md): void {
  md.set({ highlight: (code, language) => highlightCode(code, language) });
  mathSupport(md);
  diagramSupport(md);
  md.use(footnote);
  md.use(emoji);
  detailsContainer(md);
  // After heading-ids (pushed by the renderer before this plugin), so the ids exist.
  md.core.ruler.push('kb_toc', tableOfContents);
}
