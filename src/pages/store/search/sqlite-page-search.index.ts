import type { Sql } from '../../../common/database/sql';
import {
  boostSql,
  indexedColumns,
  PageSearchIndex,
  ScoreParts,
  SearchDocument,
  SearchOptions,
} from './page-search-index';
import { SearchTerms, toFts5Match } from '../../model/search/search-terms';
import { buildSnippet, HIT_CLOSE, HIT_OPEN, markedToHtml } from '../../model/search/search-text';

/** bm25 column weights: page_id (unindexed), title, body, tags, title_grams, body_grams. */
const BM25 = 'bm25(page_search, 0.0, 10.0, 1.0, 4.0, 10.0, 1.0)';
/** The same, one field at a time (explain): title (with its grams), body (with its grams), tags. */
const BM25_PARTS = {
  title: 'bm25(page_search, 0.0, 10.0, 0.0, 0.0, 10.0, 0.0)',
  body: 'bm25(page_search, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0)',
  tags: 'bm25(page_search, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0)',
};
/** bm25 is negative, lower is better: times the boost, a boosted page sorts earlier. */
const RANK = `${BM25} * ${boostSql()}`;
const SNIPPET_TOKENS = 24;
/** Above this many matches, ranking switches from bm25 to title-first, most recent first. */
export const RANKED_MATCHES = 2_000;

/**
 * SQLite FTS5: the virtual table `page_search(page_id UNINDEXED, title, body, tags,
 * title_grams, body_grams)` (the grams: search-grams.ts) plus
 * `search_rowids(page_id → fts_rowid)`, because FTS5 can only find a row quickly by rowid and
 * a lookup by the unindexed page_id would scan the whole index on every save.
 * A page gets a fresh, larger rowid on every save, so rowid order is "most recently saved".
 */
export class SqlitePageSearchIndex implements PageSearchIndex {
  constructor(private readonly rankedMatches = RANKED_MATCHES) {}

  /** Four statements: the old index row out, the next rowid, the new row in, its rowid kept. */
  async upsert(sql: Sql, document: SearchDocument): Promise<void> {
    await this.deleteIndexRow(sql, document.pageId);
    const last = await sql.all<{ rowid: number }>(
      'SELECT rowid FROM page_search ORDER BY rowid DESC LIMIT 1',
    );
    const rowid = (last[0]?.rowid ?? 0) + 1;
    await sql.run(
      'INSERT INTO page_search (rowid, page_id, title, body, tags, title_grams, body_grams) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?)',
      [rowid, document.pageId, ...indexedColumns(document, 0)],
    );
    await sql.run(
      'INSERT INTO search_rowids (page_id, fts_rowid) VALUES (?, ?) ' +
        'ON CONFLICT (page_id) DO UPDATE SET fts_rowid = excluded.fts_rowid',
      [document.pageId, rowid],
    );
  }

  async remove(sql: Sql, pageId: string): Promise<void> {
    await this.deleteIndexRow(sql, pageId);
    await sql.run('DELETE FROM search_rowids WHERE page_id = ?', [pageId]);
  }

  private async deleteIndexRow(sql: Sql, pageId: string): Promise<void> {
    await sql.run(
      'DELETE FROM page_search WHERE rowid = (SELECT fts_rowid FROM search_rowids WHERE page_id = ?)',
      [pageId],
    );
  }

  /**
   * Up to `rankedMatches` (RANKED_MATCHES) matches: bm25 over all of them. More (a query of common words): title
   * matches first, then the others, each most recently saved first. bm25 would score every
   * match and count every word's pages first, which costs O(matches) per request (hundreds of
   * milliseconds at 100,000 pages), while its order among thousands of pages that all contain
   * "service" says little; reading two rowid-ordered lists stops after `offset + count` rows.
   */
  async search(
    sql: Sql,
    terms: SearchTerms,
    offset: number,
    count: number,
    options: SearchOptions = {},
  ): Promise<string[]> {
    const match = toFts5Match(terms);
    if (match === null) return [];
    const filter = options.filter ?? { sql: '1 = 1', params: [] };
    const from =
      'SELECT page_search.page_id FROM page_search JOIN pages p ON p.id = page_search.page_id ' +
      `WHERE page_search MATCH ? AND (${filter.sql})`;
    if (options.sort === 'updated') {
      return this.ids(sql, `${from} ORDER BY p.updated_at DESC, p.id LIMIT ? OFFSET ?`, [
        match,
        ...filter.params,
        count,
        offset,
      ]);
    }
    if (!(await this.manyMatches(sql, match))) {
      return this.ids(sql, `${from} ORDER BY ${RANK}, page_search.rowid DESC LIMIT ? OFFSET ?`, [
        match,
        ...filter.params,
        new Date(),
        count,
        offset,
      ]);
    }
    const inTitle = `(${match}) AND ${toFts5Match(terms, 'title')}`;
    const byRecency = `${from} ORDER BY page_search.rowid DESC LIMIT ? OFFSET ?`;
    const titled = await this.ids(sql, byRecency, [inTitle, ...filter.params, count, offset]);
    if (titled.length === count) return titled;
    // Where the title matches end: known from this read unless the offset is already past them.
    let titledTotal = offset + titled.length;
    if (titled.length === 0 && offset > 0) {
      const rows = await sql.all<{ n: number }>(`SELECT count(*) AS n FROM (${from})`, [
        inTitle,
        ...filter.params,
      ]);
      titledTotal = rows[0].n;
    }
    const rest = await this.ids(sql, byRecency, [
      `(${match}) NOT (${toFts5Match(terms, 'title')})`,
      ...filter.params,
      count - titled.length,
      Math.max(0, offset - titledTotal),
    ]);
    return [...titled, ...rest];
  }

  /** Whether more than `rankedMatches` pages match: reads that many rowids, nothing else. */
  private async manyMatches(sql: Sql, match: string): Promise<boolean> {
    const beyond = await sql.all(
      'SELECT rowid FROM page_search WHERE page_search MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?',
      [match, this.rankedMatches],
    );
    return beyond.length > 0;
  }

  private async ids(sql: Sql, statement: string, parameters: unknown[]): Promise<string[]> {
    const rows = await sql.all<{ page_id: string }>(statement, parameters);
    return rows.map((r) => r.page_id);
  }

  async explain(sql: Sql, terms: SearchTerms, pageIds: string[]): Promise<Map<string, ScoreParts>> {
    const match = toFts5Match(terms);
    const result = new Map<string, ScoreParts>();
    if (match === null) return result;
    const rows = await sql.all<{ page_id: string; fts_rowid: number }>(
      `SELECT page_id, fts_rowid FROM search_rowids WHERE page_id IN (${pageIds.map(() => '?').join(', ')})`,
      pageIds,
    );
    for (const { page_id: pageId, fts_rowid: rowid } of rows) {
      const [row] = await sql.all<Record<string, number>>(
        `SELECT -${BM25_PARTS.title} AS title, -${BM25_PARTS.body} AS body, -${BM25_PARTS.tags} AS tags,
                ${boostSql()} AS boost, -${RANK} AS score
         FROM page_search JOIN pages p ON p.id = page_search.page_id
         WHERE page_search MATCH ? AND page_search.rowid BETWEEN ? AND ?`,
        [new Date(), new Date(), match, rowid, rowid],
      );
      if (row) result.set(pageId, toScoreParts(row));
    }
    return result;
  }

  async snippets(sql: Sql, terms: SearchTerms, pageIds: string[]): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    const match = toFts5Match(terms);
    if (match === null || pageIds.length === 0) return result;
    if (needsSnippetsInCode(terms) || (await this.manyMatches(sql, match)))
      return this.snippetsInCode(sql, terms, pageIds);
    const rows = await sql.all<{ page_id: string; fts_rowid: number }>(
      `SELECT page_id, fts_rowid FROM search_rowids WHERE page_id IN (${pageIds.map(() => '?').join(', ')})`,
      pageIds,
    );
    // One row at a time, so FTS5 seeks straight to it: a `rowid IN (...)` beside MATCH is not
    // pushed down (it walks every match of a common word), and SQLite 3.53's FTS5 ignores a
    // bound `rowid = ?` beside MATCH (every match comes back), while BETWEEN is honoured.
    for (const row of rows) {
      const [hit] = await sql.all<{ snippet: string | null }>(
        `SELECT snippet(page_search, 2, ?, ?, '…', ${SNIPPET_TOKENS}) AS snippet FROM page_search WHERE page_search MATCH ? AND rowid BETWEEN ? AND ?`,
        [HIT_OPEN, HIT_CLOSE, match, row.fts_rowid, row.fts_rowid],
      );
      if (hit) result.set(row.page_id, markedToHtml(hit.snippet ?? ''));
    }
    return result;
  }

  /**
   * Snippets cut in code from the stored text. Used for prefix queries (FTS5 merges the doclists
   * of every word a prefix expands to, again in each statement) and for words on thousands of
   * pages (each per-row snippet() seek then walks long doclists in every index segment).
   */
  private async snippetsInCode(
    sql: Sql,
    terms: SearchTerms,
    pageIds: string[],
  ): Promise<Map<string, string>> {
    const rows = await sql.all<{ page_id: string; body: string }>(
      `SELECT s.page_id, s.body FROM search_rowids r JOIN page_search s ON s.rowid = r.fts_rowid
       WHERE r.page_id IN (${pageIds.map(() => '?').join(', ')})`,
      pageIds,
    );
    return new Map(
      rows.map((row) => [row.page_id, buildSnippet(row.body, terms.words, terms.prefixLast)]),
    );
  }
}

/**
 * Whether FTS5's snippet() cannot mark the hits: prefixes (it merges every word a prefix
 * expands to again per row), runs (their hits are in the grams column) and phrases.
 */
function needsSnippetsInCode(terms: SearchTerms): boolean {
  return terms.prefixLast || terms.groups.some((g) => g.some((t) => t.kind !== 'word'));
}

export function toScoreParts(row: Record<string, unknown>): ScoreParts {
  const n = (v: unknown) => Number(Number(v ?? 0).toPrecision(6));
  return {
    score: n(row.score),
    title: n(row.title),
    body: n(row.body),
    tags: n(row.tags),
    boost: n(row.boost),
  };
}
