import { plainTitle } from '../../pages/public-api';
import type { ImportDocument } from '../import.types';
import { extractTitle } from './markdown-title';

export interface TitleChoice {
  title?: string;
  body: string;
}

/**
 * The title of a Markdown document with optional front matter: the front matter `title`
 * (plain text, as YAML holds it) wins;
 * the first level-one heading is then removed only when it says the same (kb's own export
 * writes both), otherwise it stays in the body. Without a front matter title, the heading is
 * the title and is removed (round trip with kb's export).
 */
export function chooseTitle(frontMatterTitle: unknown, body: string): TitleChoice {
  const declared =
    typeof frontMatterTitle === 'string' || typeof frontMatterTitle === 'number'
      ? String(frontMatterTitle).replace(/\s+/g, ' ').trim()
      : '';
  const heading = extractTitle(body);
  const headingTitle = heading.title === undefined ? undefined : plainTitle(heading.title);
  if (declared !== '') {
    return { title: declared, body: headingTitle === declared ? heading.body : body };
  }
  if (headingTitle) return { title: headingTitle, body: heading.body };
  return { body };
}

const WIKIJS1_COMMENT =
  /^[ \t]*<!--[ \t]*(TITLE|SUBTITLE):[ \t]*([\s\S]*?)[ \t]*-->[ \t]*(?:\r?\n|$)/i;

/**
 * Wiki.js 1 writes the title and subtitle as leading comments:
 * `<!-- TITLE: Getting Started -->` / `<!-- SUBTITLE: A quick summary -->`.
 */
export function readWikiJs1Header(text: string): {
  title?: string;
  subtitle?: string;
  body: string;
} {
  let rest = text.replace(/^(?:[ \t]*\r?\n)+/, '');
  const found: { title?: string; subtitle?: string } = {};
  for (let match = WIKIJS1_COMMENT.exec(rest); match; match = WIKIJS1_COMMENT.exec(rest)) {
    const value = match[2].replace(/\s+/g, ' ').trim();
    if (match[1].toUpperCase() === 'TITLE') found.title ??= value;
    else found.subtitle ??= value;
    rest = rest.slice(match[0].length).replace(/^(?:[ \t]*\r?\n)+/, '');
  }
  if (found.title === undefined && found.subtitle === undefined) return { body: text };
  return { ...found, body: rest };
}

const SPACE_PREFIX = /^(.+?) : (.+)$/;

/**
 * Confluence prefixes page titles with the space name (`Space name : Page`), and so does
 * Markdown converted from its exports. When every page of the upload (two or more) carries
 * the same prefix it is removed. kb archives are restored as they are.
 */
export function stripSpacePrefixes(documents: ImportDocument[]): void {
  if (!stripCommonSpacePrefix(documents)) stripConfluenceSpacePrefixes(documents);
}

/** Whether every page had the same prefix (and lost it). */
function stripCommonSpacePrefix(documents: ImportDocument[]): boolean {
  if (documents.length < 2 || documents.some((doc) => doc.metadata)) return false;
  let prefix: string | undefined;
  for (const doc of documents) {
    const match = SPACE_PREFIX.exec(doc.title);
    if (!match || (prefix !== undefined && match[1] !== prefix)) return false;
    prefix = match[1];
  }
  for (const doc of documents) doc.title = doc.title.slice(prefix!.length + 3).trim();
  return true;
}

/**
 * Markdown converted from Confluence (cleanConfluence) whose pages do not all carry the same
 * prefix — a space home or index page without it, several spaces in one upload: a page loses
 * its `Space name : ` when its title is known to be Confluence's (the title element or page
 * header was there), when two or more such pages carry that prefix, when another page of the
 * upload is titled by it (the space's home), or when it is the only page. Only the first
 * ` : ` counts, so `Space : Q&A : Billing` keeps `Q&A : Billing`.
 */
function stripConfluenceSpacePrefixes(documents: ImportDocument[]): void {
  const prefixed = documents
    .filter((doc) => doc.confluenceTitle && !doc.metadata)
    .map((doc) => ({ doc, match: SPACE_PREFIX.exec(doc.title) }))
    .filter((item): item is { doc: ImportDocument; match: RegExpExecArray } => !!item.match);
  const carriers = new Map<string, number>();
  for (const { match } of prefixed) carriers.set(match[1], (carriers.get(match[1]) ?? 0) + 1);
  const titles = new Set(documents.map((doc) => doc.title));
  for (const { doc, match } of prefixed) {
    const space = match[1];
    if (
      doc.confluenceTitle === 'certain' ||
      carriers.get(space)! >= 2 ||
      titles.has(space) ||
      documents.length === 1
    )
      doc.title = match[2].trim();
  }
}
