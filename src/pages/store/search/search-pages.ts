import { readQuery, Sql } from '../../../common/database/sql';
import type { SearchTerms } from '../../search/search-terms';
import { SearchResultPage, visibleSearchPages } from '../page-lists';
import type { Viewer } from '../visibility-sql';
import type { PageSearchIndex } from './page-search-index';
import { pageSearchIndexFor } from './page-search-indexes';
import { SearchCache } from './search-cache';

/** Ranked hits read from the index per round, at least. */
const MIN_CHUNK = 50;
/** Hits one request may inspect: a reader who may see few of many hits gets a short page and a cursor. */
const MAX_SCANNED = 2_000;
/** Deepest position a cursor may point at (offsets cost the index more the deeper they go). */
export const MAX_OFFSET = 10_000;

export interface SearchHits {
  /** Visible pages in rank order, at most `limit`. */
  pages: SearchResultPage[];
  /** Snippets of those pages by id. */
  snippets: Map<string, string>;
  /** Position in the ranked hit list where the next page of results starts, or null. */
  nextOffset: number | null;
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
): Promise<SearchHits> {
  const found: SearchResultPage[] = [];
  let offset = start;
  let nextOffset: number | null = null;
  const chunk = Math.max(MIN_CHUNK, limit * 2);
  let scanned = 0;
  while (found.length <= limit) {
    const ids = await index.search(sql, terms, offset, chunk);
    const visible = new Map(
      (await visibleSearchPages(sql, ids, viewer)).map((page) => [page.id, page]),
    );
    let position = offset;
    for (const id of ids) {
      position++;
      const page = visible.get(id);
      if (!page) continue;
      if (found.length === limit) {
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
  return { pages: found, snippets, nextOffset };
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
  ): Promise<SearchHits> => {
    const generation = await sql.searchGeneration();
    const key = JSON.stringify([terms, viewer.role, [...viewer.groups].sort(), start, limit]);
    const cached = generation === null ? undefined : cache.get(generation, key);
    if (cached) return cached;
    const hits = await searchVisiblePages(
      sql,
      pageSearchIndexFor(sql.dialect),
      terms,
      viewer,
      start,
      limit,
    );
    if (generation !== null) cache.set(generation, key, hits);
    return hits;
  },
  { lagTolerant: true },
);
