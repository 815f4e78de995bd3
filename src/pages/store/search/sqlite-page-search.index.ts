import type { Sql } from '../../../common/database/sql';
import { PageSearchIndex, SearchDocument } from './page-search-index';
import { SearchTerms, toFts5Match } from '../../search/search-terms';
import {
  buildSnippet,
  HIT_CLOSE,
  HIT_OPEN,
  markdownToPlainText,
  markedToHtml,
} from '../../search/search-text';

/** bm25 column weights: page_id (unindexed), title, body, tags. */
const BM25 = 'bm25(page_search, 0.0, 10.0, 1.0, 4.0)';
const SNIPPET_TOKENS = 24;
/** Above this many matches, ranking switches from bm25 to title-first, most recent first. */
export const RANKED_MATCHES = 2_000;

/**
 * SQLite FTS5: the virtual table `page_search(page_id UNINDEXED, title, body, tags)` plus
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
      'INSERT INTO page_search (rowid, page_id, title, body, tags) VALUES (?, ?, ?, ?, ?)',
      [
        rowid,
        document.pageId,
        document.title,
        markdownToPlainText(document.content),
        document.tags.join(' '),
      ],
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
  async search(sql: Sql, terms: SearchTerms, offset: number, count: number): Promise<string[]> {
    if (terms.words.length === 0) return [];
    const match = toFts5Match(terms);
    if (!(await this.manyMatches(sql, match))) {
      return this.ids(
        sql,
        `SELECT page_id FROM page_search WHERE page_search MATCH ? ORDER BY ${BM25}, rowid DESC LIMIT ? OFFSET ?`,
        [match, count, offset],
      );
    }
    const inTitle = `{title} : (${match})`;
    const byRecency =
      'SELECT page_id FROM page_search WHERE page_search MATCH ? ORDER BY rowid DESC LIMIT ? OFFSET ?';
    const titled = await this.ids(sql, byRecency, [inTitle, count, offset]);
    if (titled.length === count) return titled;
    // Where the title matches end: known from this read unless the offset is already past them.
    let titledTotal = offset + titled.length;
    if (titled.length === 0 && offset > 0) {
      const rows = await sql.all<{ n: number }>(
        'SELECT count(*) AS n FROM page_search WHERE page_search MATCH ?',
        [inTitle],
      );
      titledTotal = rows[0].n;
    }
    const rest = await this.ids(sql, byRecency, [
      `(${match}) NOT ${inTitle}`,
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

  async snippets(sql: Sql, terms: SearchTerms, pageIds: string[]): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    if (terms.words.length === 0 || pageIds.length === 0) return result;
    const match = toFts5Match(terms);
    if (terms.prefixLast || (await this.manyMatches(sql, match)))
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
