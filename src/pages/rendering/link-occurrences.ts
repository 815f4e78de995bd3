import MarkdownIt from 'markdown-it';
import { resolveInternalHref } from './links';
import { mediaReferenceAt } from '../../common/text/media-urls';

/** One link or image in a page's Markdown that points inside kb. */
export interface LinkOccurrence {
  /** The target as written. */
  target: string;
  /** 1-based line in the Markdown. */
  line: number;
  kind: 'link' | 'image';
  /** A stored image or attachment (`/api/images/{id}/content`), by id. */
  mediaId?: string;
  /** A page, by the slug the target resolves to (links only). */
  slug?: string;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

// The renderer's block and inline rules, without plugins (they add no links) or rendering.
const parser = new MarkdownIt({ html: true, linkify: false, typographer: false });

/**
 * The internal links and every non-external image of a page's Markdown, in document order, with
 * their lines: the line of the block they are in plus the line breaks before them in it.
 * External targets (`https:`, `mailto:`), pure `#anchors` and targets built from variables
 * (`{{base}}/x`) are left out: kb cannot check them.
 */
export function linkOccurrences(markdown: string, baseSlug: string): LinkOccurrence[] {
  if (!markdown.includes('](') && !markdown.includes(']:')) return [];
  const found: LinkOccurrence[] = [];
  // Inline tokens of table cells have no map of their own: the row's (tr_open) applies.
  let blockStart = 0;
  for (const block of parser.parse(markdown, {})) {
    if (block.map) blockStart = block.map[0];
    if (block.type !== 'inline' || !block.children) continue;
    let line = blockStart + 1;
    for (const token of block.children) {
      if (token.type === 'softbreak' || token.type === 'hardbreak') {
        line++;
        continue;
      }
      if (token.type === 'text' || token.type === 'code_inline') {
        line += (token.content.match(/\n/g) ?? []).length;
        continue;
      }
      const kind = token.type === 'link_open' ? 'link' : token.type === 'image' ? 'image' : null;
      if (!kind) continue;
      const target = String(token.attrGet(kind === 'link' ? 'href' : 'src') ?? '');
      const occurrence = classify(target, baseSlug, kind, line);
      if (occurrence) found.push(occurrence);
    }
  }
  return found;
}

function classify(
  target: string,
  baseSlug: string,
  kind: 'link' | 'image',
  line: number,
): LinkOccurrence | null {
  const trimmed = target.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.includes('{{')) return null;
  const media = mediaReferenceAt(trimmed);
  if (media) return { target, line, kind, mediaId: media.id };
  if (SCHEME.test(trimmed) || trimmed.startsWith('//')) return null;
  if (kind === 'image') return { target, line, kind };
  const resolved = resolveInternalHref(trimmed, baseSlug);
  if (!resolved) return null;
  return { target, line, kind, slug: resolved.slug };
}
