import { readQuery, Sql } from '../../../common/database/sql';
import type { SearchTerms } from '../../model/search/search-terms';
import type { SearchResultPage } from '../../model/page-shapes';
import { visibleSearchPages } from '../page-lists';
import type { Viewer } from '../visibility-sql';
import type { PageSearchIndex, ScoreParts, SearchOptions } from './page-search-index';
import { filterSql } from './search-filters';
import { pageSearchIndexFor } from './page-search-indexes';
import { SearchCache } from './search-cache';
import { AttachmentHit, searchAttachments } from './attachment-search';

/** Ranked hits read from the index per round, at least. */
const MIN_CHUNK = 50;
/** Hits one request may inspect: a reader who may see few of many hits gets a short page and a cursor. */
const MAX_SCANNED = 2_000;
/** Deepest position a cursor may point at (offsets cost the index more the deeper they go). */
export const MAX_OFFSET = 10_000;

/** Pages counted for facets, at most (the best matches first): facets stay bounded in cost. */
export const FACET_SCAN = 2_000;
/** Attachment hits on the first page of results, at most (docs/search.md "Attachments"). */
export const ATTACHMENT_HITS = 3;
/** Facet values answered per facet, the most frequent first. */
const FACET_VALUES = 20;

export interface FacetCount {
  name: string;
  count: number;
}

export interface SearchFacets {
  tags: FacetCount[];
  folders: FacetCount[];
}

/** What a search asks beyond its terms. */
export interface SearchRequestOptions {
  sort?: SearchOptions['sort'];
  /** Count tags and top-level folders over the matching pages. */
  facets?: boolean;
}

export interface SearchHits {
  /** Visible pages in rank order, at most `limit`. */
  pages: SearchResultPage[];
  /** Snippets of those pages by id. */
  snippets: Map<string, string>;
  /** Position in the ranked hit list where the next page of results starts, or null. */
  nextOffset: number | null;
  /** When asked for: counts over the first FACET_SCAN visible matching pages. */
  facets?: SearchFacets;
  /** Attached documents whose text matches, after the pages (first page of results only). */
  attachments: AttachmentHit[];
}

/**
 * One page of search results: the index ranks, the pages' visibility rule filters (reading
 * further while hits are invisible, up to MAX_SCANNED), snippets are cut for what is returned.
 * A plain function over `Sql` and an index, so the whole search can run on a worker's connection.
 */
export async function searchVisiblePages(
  sql: Sql,
  index: PageSearchIndex,
  terms: SearchTerms,
  viewer: Viewer,
  start: number,
  limit: number,
  request: SearchRequestOptions = {},
): Promise<SearchHits> {
  const options: SearchOptions = {
    filter: filterSql(terms.filters, viewer),
    sort: request.sort ?? 'relevance',
  };
  const hitIds = (offset: number, count: number): Promise<string[]> =>
    terms.groups.length > 0
      ? index.search(sql, terms, offset, count, options)
      : filteredPageIds(sql, options, offset, count);
  // The first page of results ends with up to ATTACHMENT_HITS attachments, in place of pages
  // (a limit of 1 holds only a page); the next page's position counts pages only.
  const attachments =
    start === 0 && terms.groups.length > 0 && limit > 1
      ? await searchAttachments(
          sql,
          terms,
          viewer,
          options.filter!,
          Math.min(ATTACHMENT_HITS, limit - 1),
        )
      : [];
  const pageLimit = limit - attachments.length;
  const found: SearchResultPage[] = [];
  let offset = start;
  let nextOffset: number | null = null;
  const chunk = Math.max(MIN_CHUNK, pageLimit * 2);
  let scanned = 0;
  while (found.length <= pageLimit) {
    const ids = await hitIds(offset, chunk);
    const visible = new Map(
      (await visibleSearchPages(sql, ids, viewer)).map((page) => [page.id, page]),
    );
    let position = offset;
    for (const id of ids) {
      position++;
      const page = visible.get(id);
      if (!page) continue;
      if (found.length === pageLimit) {
        // One more visible hit exists: the next page starts at it.
        nextOffset = position - 1;
        break;
      }
      found.push(page);
    }
    if (nextOffset !== null || ids.length < chunk) break;
    offset += ids.length;
    scanned += ids.length;
    if (scanned >= MAX_SCANNED || offset >= MAX_OFFSET) {
      nextOffset = offset < MAX_OFFSET ? offset : null;
      break;
    }
  }
  const snippets = await index.snippets(
    sql,
    terms,
    found.map((p) => p.id),
  );
  const hits: SearchHits = { pages: found, snippets, nextOffset, attachments };
  if (request.facets) {
    const visible = await visibleSearchPages(sql, await hitIds(0, FACET_SCAN), viewer);
    hits.facets = countFacets(visible);
  }
  return hits;
}

/** Tag and top-level folder counts of some pages, the most frequent first (then by name). */
function countFacets(pages: SearchResultPage[]): SearchFacets {
  const tags = new Map<string, number>();
  const folders = new Map<string, number>();
  for (const page of pages) {
    for (const tag of new Set(page.tags)) tags.set(tag, (tags.get(tag) ?? 0) + 1);
    const slash = page.slug.indexOf('/');
    if (slash > 0) {
      const folder = page.slug.slice(0, slash);
      folders.set(folder, (folders.get(folder) ?? 0) + 1);
    }
  }
  const top = (counts: Map<string, number>): FacetCount[] =>
    [...counts]
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, FACET_VALUES);
  return { tags: top(tags), folders: top(folders) };
}

/** A query of filters only (`tag:ops under:runbooks`): the pages meeting them, newest first. */
async function filteredPageIds(
  sql: Sql,
  options: SearchOptions,
  offset: number,
  count: number,
): Promise<string[]> {
  const filter = options.filter ?? { sql: '1 = 1', params: [] };
  const rows = await sql.all<{ id: string }>(
    `SELECT p.id FROM pages p WHERE p.live_slug IS NOT NULL AND (${filter.sql}) ` +
      'ORDER BY p.updated_at DESC, p.id LIMIT ? OFFSET ?',
    [...filter.params, count, offset],
  );
  return rows.map((r) => r.id);
}

/** Answers of this connection's searches (a read-pool worker's: see SearchCache). */
const cache = new SearchCache<SearchHits>();

/**
 * A whole search on the database's own index (FTS5 / FULLTEXT) as a ReadQuery, so it runs in
 * the SQLite read pool; a search engine provided under PAGE_SEARCH_INDEX runs in-process. On a
 * connection with a search generation (the pool's), repeated searches are answered from the
 * cache until a commit changes pages, their groups, group names or the index.
 */
export const searchPages = readQuery(
  'searchPages',
  async (
    sql: Sql,
    terms: SearchTerms,
    viewer: Viewer,
    start: number,
    limit: number,
    request: SearchRequestOptions = {},
  ): Promise<SearchHits> => {
    const generation = await sql.searchGeneration();
    const key = JSON.stringify([
      terms,
      viewer.role,
      [...viewer.groups].sort(),
      start,
      limit,
      request,
    ]);
    const cached = generation === null ? undefined : cache.get(generation, key);
    if (cached) return cached;
    const hits = await searchVisiblePages(
      sql,
      pageSearchIndexFor(sql.dialect),
      terms,
      viewer,
      start,
      limit,
      request,
    );
    if (generation !== null) cache.set(generation, key, hits);
    return hits;
  },
  { lagTolerant: true },
);

/** Score parts of some hits (`GET /api/search/explain`), on the database's own index. */
export const explainHits = readQuery(
  'explainHits',
  (sql: Sql, terms: SearchTerms, pageIds: string[]): Promise<Map<string, ScoreParts>> =>
    pageSearchIndexFor(sql.dialect).explain(sql, terms, pageIds),
  { lagTolerant: true },
);

/** The ids of live pages by slug (explain maps its results back to index rows). */
export const pageIdsOfSlugs = readQuery(
  'pageIdsOfSlugs',
  async (sql: Sql, slugs: string[]): Promise<Map<string, string>> => {
    if (slugs.length === 0) return new Map();
    const rows = await sql.all<{ id: string; live_slug: string }>(
      `SELECT id, live_slug FROM pages WHERE live_slug IN (${slugs.map(() => '?').join(', ')})`,
      slugs,
    );
    return new Map(rows.map((r) => [r.live_slug, r.id]));
  },
  { lagTolerant: true },
);
