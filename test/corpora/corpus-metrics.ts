/**
 * What `npm run test:corpora` measures on an imported set: links that resolve, internal links
 * that are broken although their target is part of the set, callout markers left as text, and
 * code blocks whose language was lost. Pure functions over rendered HTML and source texts.
 */
import { posix } from 'node:path';
import { fenceLanguage } from '../../src/pages/rendering/code-language';
import { decodeSegment, slugifySegment } from '../../src/import/slugs';

export interface RenderedPage {
  slug: string;
  html: string;
}

export interface SetMetrics {
  pages: number;
  /** Internal links (not media, not external) that name a live page. */
  linksResolved: number;
  /** Internal links to nothing, whose target names a document of the set. */
  brokenInSet: { page: string; href: string }[];
  /** Internal links to documents of the set that the import skipped as invalid (reported). */
  brokenToSkipped: number;
  /** Internal links to nothing whose target is not in the set (reported by the import). */
  brokenOutside: number;
  /** `[!NOTE]`-style markers shown as text. */
  markers: { page: string; marker: string }[];
  /** Code blocks with a language in the source. */
  sourceLanguages: number;
  /** Rendered code blocks with a language class. */
  renderedLanguages: number;
  /** Source blocks with a language that rendered without one (per page where pages are known). */
  lostLanguages: number;
  /** Language classes that are not a language name (`language-theme:`, `language-rust,ignore`). */
  badLanguageClasses: string[];
}

const MARKER = /\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/gi;
const HREF = /<a\b[^>]*?\bhref="([^"]*)"/g;
const CODE_CLASS = /<code class="language-([^"]*)"/g;
/** A diagram fence drawn as a figure keeps its language as its class (kb-diagram-mermaid). */
const DIAGRAM_CLASS = /<figure class="kb-diagram kb-diagram-([a-z]+)"/g;

function decodeEntities(value: string): string {
  return value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

function withoutCode(html: string): string {
  return html.replace(/<pre[\s\S]*?<\/pre>/g, '').replace(/<code[\s\S]*?<\/code>/g, '');
}

function pathKeys(path: string): string[] {
  const stem = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.(?:md|markdown|html?|json)$/i, '')
    .replace(/\/(?:index|readme)$/i, '');
  const segments = stem.split('/').map(decodeSegment);
  return [segments.join('/').toLowerCase(), segments.map(slugifySegment).join('/')];
}

/**
 * The keys a document of the set is known by: its path (as written and slugified, without
 * extension); in a flat set (Confluence pages) also its file name and Confluence page id,
 * because links to it are resolved against nested page slugs.
 */
export function documentKeys(paths: string[]): Set<string> {
  const flat = paths.every((p) => !p.includes('/'));
  const keys = new Set<string>();
  for (const path of paths) {
    for (const key of pathKeys(path)) keys.add(key);
    const id = /(?:^|_)(\d+)\.[^.]+$/.exec(path)?.[1];
    if (flat && id) keys.add(id);
  }
  keys.delete('');
  if (flat) keys.add('\u0000flat');
  return keys;
}

function targetKeys(path: string, documents: Set<string>): string[] {
  const keys = pathKeys(path);
  if (documents.has('\u0000flat')) {
    const last = path.split('/').filter(Boolean).pop() ?? '';
    keys.push(...pathKeys(last), /(?:^|_)(\d+)(?:\.html?)?$/.exec(last)?.[1] ?? '');
  }
  return keys;
}

/** Where an href of a rendered page leads, as a browser resolves it; undefined when external. */
function internalPath(href: string, pageSlug: string): string | undefined {
  const target = decodeEntities(href).trim();
  if (target === '' || target.startsWith('#') || target.startsWith('//')) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const path = target.split(/[?#]/)[0];
  if (path === '') return undefined;
  const absolute = path.startsWith('/')
    ? posix.normalize(path)
    : posix.normalize(posix.join('/', posix.dirname(pageSlug), path));
  if (/^\/api\/(?:images|attachments)\//.test(absolute)) return undefined;
  return absolute;
}

/**
 * `sourceLanguages`: code blocks with a language per page slug, or under `*` for the whole set
 * when the pages' slugs are not known in advance (Confluence titles).
 */
export function measure(
  pages: RenderedPage[],
  documents: Set<string>,
  sourceLanguages: Map<string, number>,
  skipped: Set<string> = new Set(),
): SetMetrics {
  const live = new Set(pages.map((p) => p.slug));
  const metrics: SetMetrics = {
    pages: pages.length,
    linksResolved: 0,
    brokenInSet: [],
    brokenToSkipped: 0,
    brokenOutside: 0,
    markers: [],
    sourceLanguages: [...sourceLanguages.values()].reduce((a, b) => a + b, 0),
    renderedLanguages: 0,
    lostLanguages: 0,
    badLanguageClasses: [],
  };
  for (const page of pages) {
    for (const match of page.html.matchAll(HREF)) {
      const path = internalPath(match[1], page.slug);
      if (path === undefined) continue;
      let slug: string;
      try {
        slug = decodeURIComponent(path.replace(/^\/+|\/+$/g, '')).toLowerCase();
      } catch {
        slug = path.replace(/^\/+|\/+$/g, '').toLowerCase();
      }
      if (live.has(slug)) {
        metrics.linksResolved++;
      } else if (targetKeys(path, skipped).some((key) => key !== '' && skipped.has(key))) {
        metrics.brokenToSkipped++;
      } else if (targetKeys(path, documents).some((key) => key !== '' && documents.has(key))) {
        metrics.brokenInSet.push({ page: page.slug, href: match[1] });
      } else {
        metrics.brokenOutside++;
      }
    }
    for (const match of withoutCode(page.html).matchAll(MARKER))
      metrics.markers.push({ page: page.slug, marker: match[0] });
    let rendered = 0;
    for (const match of page.html.matchAll(CODE_CLASS)) {
      rendered++;
      if (!/^[\p{L}\p{N}_#+.-]+$/u.test(match[1])) metrics.badLanguageClasses.push(match[1]);
    }
    rendered += [...page.html.matchAll(DIAGRAM_CLASS)].length;
    metrics.renderedLanguages += rendered;
    const expected = sourceLanguages.get(page.slug);
    if (expected !== undefined) metrics.lostLanguages += Math.max(0, expected - rendered);
  }
  const whole = sourceLanguages.get('*');
  if (whole !== undefined) metrics.lostLanguages += Math.max(0, whole - metrics.renderedLanguages);
  return metrics;
}

/** Code blocks of Markdown text whose info string names a language. */
export function markdownLanguages(markdown: string): number {
  let count = 0;
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const match = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence) {
      if (match && match[1][0] === fence[0] && match[1].length >= fence.length && !match[2].trim())
        fence = undefined;
      continue;
    }
    if (!match) continue;
    fence = match[1];
    if (fenceLanguage(match[2]) !== '') count++;
  }
  return count;
}

/** Confluence HTML code panels whose brush names a language. */
export function confluenceLanguages(html: string): number {
  let count = 0;
  for (const match of html.matchAll(/data-syntaxhighlighter-params="([^"]*)"/g)) {
    const brush = /brush:\s*([^;]+)/.exec(match[1])?.[1]?.trim().toLowerCase();
    if (brush && !['text', 'plain', 'none'].includes(brush)) count++;
  }
  return count;
}

/** Lost languages: blocks that lost theirs, and classes that are no language name. */
export function lostLanguages(metrics: SetMetrics): number {
  return metrics.lostLanguages + metrics.badLanguageClasses.length;
}
