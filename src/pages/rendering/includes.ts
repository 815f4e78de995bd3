import type MarkdownIt from 'markdown-it';
import container from 'markdown-it-container';
import { isValidSlug, normaliseSlug } from '../model/slug';

/**
 * Includes: `![[slug]]` (a whole page) or `![[slug#name]]` (its excerpt `name`, marked in that
 * page by `:::excerpt name` … `:::`) on a line of its own. Which content a reader gets depends
 * on what the reader may see, while the HTML is rendered at write and shared by every reader:
 * so the stored HTML holds an empty placeholder (`<div class="kb-include"
 * data-include="slug#name"></div>`, which authored HTML cannot produce: the sanitiser keeps
 * neither the class nor the attribute) and each read fills it from the included page's own
 * stored HTML, checked against the reader (IncludeResolver). The included page's changes are
 * therefore seen by the next read of every page that includes it.
 */

type Md = InstanceType<typeof MarkdownIt>;
type Token = ReturnType<Md['parse']>[number];
type CoreRule = Parameters<Md['core']['ruler']['push']>[1];

/** An include: the slug of the included page and, for an excerpt, its name. */
export interface IncludeTarget {
  slug: string;
  excerpt: string | null;
}

/** How deep includes nest: a page, a page it includes, … up to this many levels of inclusion. */
export const MAX_INCLUDE_DEPTH = 3;

export const INCLUDE_CLASS = 'kb-include';
const INCLUDE_LINE = /^!\[\[\s*([^\]#|\s]+)\s*(?:#\s*([^\]|]*?)\s*)?\]\]$/;
const EXCERPT_NAME = /^[\p{L}\p{N}_.-]{1,100}$/u;

/** The include a paragraph's text names, or null (not an include line). */
export function includeTarget(line: string): IncludeTarget | null {
  const match = INCLUDE_LINE.exec(line.trim());
  if (!match) return null;
  const slug = normaliseSlug(match[1].replace(/^\/+/, ''));
  const excerpt = match[2] === undefined || match[2] === '' ? null : match[2];
  return { slug, excerpt };
}

/** The key a placeholder carries: `slug` or `slug#name`. */
export function includeKey(target: IncludeTarget): string {
  return target.excerpt === null ? target.slug : `${target.slug}#${target.excerpt}`;
}

export function parseIncludeKey(key: string): IncludeTarget {
  const hash = key.indexOf('#');
  return hash < 0
    ? { slug: key, excerpt: null }
    : { slug: key.slice(0, hash), excerpt: key.slice(hash + 1) };
}

function escapeAttribute(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function unescapeAttribute(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_all, name: string) =>
      ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name as 'amp'] ?? '',
  );
}

/** The stored placeholder of an include (filled per reader). */
export function includePlaceholder(target: IncludeTarget): string {
  return `<div class="${INCLUDE_CLASS}" data-include="${escapeAttribute(includeKey(target))}"></div>`;
}

const PLACEHOLDER = /<div class="kb-include" data-include="([^"]*)"><\/div>/g;

/** Whether rendered HTML holds an include to fill. */
export function holdsIncludes(html: string): boolean {
  return html.includes('<div class="kb-include" data-include="');
}

/** The keys (`slug` or `slug#name`) of the placeholders in rendered HTML, each once. */
export function includeKeys(html: string): string[] {
  const keys = new Set<string>();
  for (const match of html.matchAll(PLACEHOLDER)) keys.add(unescapeAttribute(match[1]));
  return [...keys];
}

/** Fills each placeholder with `fill(key)`: the included content or a neutral note. */
export function fillIncludes(html: string, fill: (key: string) => string): string {
  return html.replace(PLACEHOLDER, (_all, key: string) => fill(unescapeAttribute(key)));
}

/** An include as the reader sees it: the included HTML inside the `kb-include` element. */
export function includedHtml(key: string, inner: string): string {
  return `<div class="${INCLUDE_CLASS}" data-include="${escapeAttribute(key)}">${inner}</div>`;
}

/** Why an include shows no content. The reader learns nothing of the page (see below). */
export type IncludeFailure = 'unavailable' | 'cycle' | 'depth';

const FAILURE_NOTES: Record<IncludeFailure, string> = {
  // A missing page, one the reader may not see, and a missing excerpt all read the same.
  unavailable: 'Included content is not available.',
  cycle: 'Included content is not shown: it includes itself.',
  depth: `Included content is not shown: includes nest at most ${MAX_INCLUDE_DEPTH} levels deep.`,
};

export function includeNote(key: string, failure: IncludeFailure): string {
  return (
    `<div class="${INCLUDE_CLASS} kb-include-unavailable" data-include="${escapeAttribute(key)}">` +
    `<p class="kb-include-note">${FAILURE_NOTES[failure]}</p></div>`
  );
}

const EXCERPT_OPEN = /<div class="kb-excerpt" data-excerpt="([^"]*)">/g;

/**
 * The content of excerpt `name` in rendered HTML (the first of that name), or null. The stored
 * HTML is sanitised, so its `div`s balance: the excerpt ends at the `</div>` that closes it.
 */
export function excerptOf(html: string, name: string): string | null {
  for (const match of html.matchAll(EXCERPT_OPEN)) {
    if (unescapeAttribute(match[1]) !== name) continue;
    const start = match.index + match[0].length;
    const tags = /<div[\s>]|<\/div>/g;
    tags.lastIndex = start;
    let depth = 1;
    for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
      depth += tag[0] === '</div>' ? -1 : 1;
      if (depth === 0) return html.slice(start, tag.index);
    }
    return null;
  }
  return null;
}

/** The targets of the include lines of parsed Markdown (links record them). */
function includeLines(tokens: Token[]): { at: number; target: IncludeTarget }[] {
  const found: { at: number; target: IncludeTarget }[] = [];
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i].type !== 'paragraph_open' || tokens[i + 1].type !== 'inline') continue;
    if (tokens[i + 2].type !== 'paragraph_close') continue;
    const target = includeTarget(tokens[i + 1].content);
    if (target) found.push({ at: i, target });
  }
  return found;
}

/** Where a render keeps what it found: the placeholder inserts and the link set. */
interface IncludeEnv {
  links?: Set<string>;
}

/**
 * The include lines as placeholders (`insert` puts HTML in after sanitising, like math), and
 * their slugs in the render's links: links and backlinks record an inclusion.
 */
export function includesPlugin(md: Md, insert: (env: object, html: string) => string): void {
  const rule: CoreRule = (state) => {
    const env = state.env as IncludeEnv;
    for (const { at, target } of includeLines(state.tokens).reverse()) {
      if (isValidSlug(target.slug)) env.links?.add(target.slug);
      const token = new state.Token('html_block', '', 0);
      token.content =
        (isValidSlug(target.slug)
          ? insert(state.env as object, includePlaceholder(target))
          : insert(state.env as object, includeNote(includeKey(target), 'unavailable'))) + '\n';
      state.tokens.splice(at, 3, token);
    }
  };
  md.core.ruler.push('kb_includes', rule);
  md.use(container, 'excerpt', {
    validate: (params: string) => /^excerpt\s+\S/.test(params.trim()),
    render: (tokens: Token[], idx: number, _options: unknown, env: object) => {
      const token = tokens[idx];
      if (token.nesting !== 1) return insert(env, '</div>') + '\n';
      const name = token.info.trim().slice('excerpt'.length).trim();
      const safe = EXCERPT_NAME.test(name) ? name : '';
      return insert(env, `<div class="kb-excerpt" data-excerpt="${escapeAttribute(safe)}">`) + '\n';
    },
  });
}

/** The link parser's half: include lines add their slugs to the links, nothing is rendered. */
export function includeLinksRule(md: Md): void {
  md.core.ruler.push('kb_include_links', (state) => {
    const env = state.env as IncludeEnv;
    for (const { target } of includeLines(state.tokens))
      if (isValidSlug(target.slug)) env.links?.add(target.slug);
  });
}

/** Whether Markdown may hold an include line (the link extractor's shortcut). */
export function mayHoldIncludes(markdown: string): boolean {
  return markdown.includes('![[');
}
