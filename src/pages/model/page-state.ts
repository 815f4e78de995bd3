import { metadataToJson, RevisionMetadata } from './page-metadata';
import { METADATA_KEYS, MetadataKey, PageMetadata, PageRecord } from './page-columns';

/** A group a page is restricted to. */
export interface GroupRef {
  id: string;
  name: string;
}

/**
 * The complete, validated state of a page as the writers store it: slug, title, content and
 * every metadata field of PAGE_COLUMNS, with the groups resolved to ids (the page row keeps
 * their names in `groupNames`).
 */
export type PageState = Pick<PageRecord, 'slug' | 'title' | 'content'> &
  Omit<PageMetadata, 'groupNames'> & { groups: GroupRef[] };

/**
 * What a write stores beside the state: the rendered HTML (null: render on the first read,
 * which stores it) at a site-variables version, the link targets and the media it references.
 */
export interface Derived {
  html: string | null;
  htmlSiteVersion: number;
  links: string[];
  mediaIds: string[];
}

function pickMetadata(source: Partial<PageMetadata>): PageMetadata {
  const metadata: Record<string, unknown> = {};
  for (const key of METADATA_KEYS) metadata[key] = source[key];
  return metadata as PageMetadata;
}

/** The state of a stored page, given its groups. */
export function stateOf(page: PageRecord, groups: GroupRef[]): PageState {
  const { groupNames: _names, ...metadata } = pickMetadata(page);
  return { slug: page.slug, title: page.title, content: page.content, ...metadata, groups };
}

/** The metadata fields of a state as the page row stores them. */
export function stateMetadata(state: PageState): PageMetadata {
  return pickMetadata({ ...state, groupNames: state.groups.map((g) => g.name) });
}

/** The page columns a state sets (a live page: `liveSlug` is the slug). */
export function stateColumns(
  state: PageState,
): Pick<PageRecord, 'slug' | 'liveSlug' | 'title' | 'content' | MetadataKey> {
  return {
    slug: state.slug,
    liveSlug: state.slug,
    title: state.title,
    content: state.content,
    ...stateMetadata(state),
  };
}

/** The metadata a revision records for a state. */
export function metadataOf(state: PageState): RevisionMetadata {
  return metadataToJson(stateMetadata(state));
}

/** Whether two states store the same page (a PUT that changes nothing writes no revision). */
/**
 * Markdown as it reads: LF line ends, no leading blank lines, no trailing whitespace — what a
 * Markdown export writes and an import reads back. Two contents equal by it render the same.
 */
export function canonicalMarkdown(content: string): string {
  return content
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
}

/** Whether an imported content says what the stored one says (export → import is a no-op). */
export function sameMarkdown(imported: string, stored: string): boolean {
  return imported === stored || canonicalMarkdown(imported) === canonicalMarkdown(stored);
}

export function sameState(a: PageState, b: PageState): boolean {
  const key = (s: PageState) => JSON.stringify([s.slug, s.title, s.content, metadataOf(s)]);
  return key(a) === key(b);
}
