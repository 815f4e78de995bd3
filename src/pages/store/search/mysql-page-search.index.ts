import type { Sql } from '../../../common/database/sql';
import {
  boostSql,
  indexedColumns,
  PageSearchIndex,
  ScoreParts,
  SearchDocument,
  SearchOptions,
} from './page-search-index';
import { toScoreParts } from './sqlite-page-search.index';
import { SearchTerms, toBooleanMatch } from '../../model/search/search-terms';
import { buildSnippet } from '../../model/search/search-text';

/**
 * MySQL/MariaDB: InnoDB table `page_search(page_id, title, body, tags, title_grams, body_grams)`
 * with FULLTEXT indexes on (title, title_grams), (tags) and all five, queried with MATCH ...
 * AGAINST in BOOLEAN MODE. The grams columns hold runs of unspaced scripts as character pairs
 * and words shorter than innodb_ft_min_token_size, padded with `_` (search-grams.ts).
 * Every word is required in the combined index; title and tag hits add weighted relevance.
 * InnoDB builds no snippets, so they are cut in code around the first hit.
 */
export class MysqlPageSearchIndex implements PageSearchIndex {
  async upsert(sql: Sql, document: SearchDocument): Promise<void> {
    const minTokenSize = await innodbMinTokenSize(sql);
    await sql.run(
      `INSERT INTO page_search (page_id, title, body, tags, title_grams, body_grams)
       VALUES (?, ?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE title = VALUES(title), body = VALUES(body), tags = VALUES(tags),
         title_grams = VALUES(title_grams), body_grams = VALUES(body_grams)`,
      [document.pageId, ...indexedColumns(document, minTokenSize)],
    );
  }

  async remove(sql: Sql, pageId: string): Promise<void> {
    await sql.run('DELETE FROM page_search WHERE page_id = ?', [pageId]);
  }

  async search(
    sql: Sql,
    terms: SearchTerms,
    offset: number,
    count: number,
    options: SearchOptions = {},
  ): Promise<string[]> {
    const minTokenSize = await innodbMinTokenSize(sql);
    const required = toBooleanMatch(terms, minTokenSize);
    if (required === null) return [];
    const filter = options.filter ?? { sql: '1 = 1', params: [] };
    // The boosts use the same terms, none required, so a title holding some of them counts.
    const any = toBooleanMatch(terms, minTokenSize, 'any');
    const order =
      options.sort === 'updated' ? 'p.updated_at DESC, s.page_id' : 'score DESC, s.page_id';
    const rows = await sql.all<{ page_id: string }>(
      `SELECT s.page_id, ${SCORE} AS score
       FROM page_search s JOIN pages p ON p.id = s.page_id
       WHERE ${ALL} AGAINST (? IN BOOLEAN MODE) AND (${filter.sql})
       ORDER BY ${order} LIMIT ? OFFSET ?`,
      [any, any, required, new Date(), required, ...filter.params, count, offset],
    );
    return rows.map((r) => r.page_id);
  }

  async explain(sql: Sql, terms: SearchTerms, pageIds: string[]): Promise<Map<string, ScoreParts>> {
    const minTokenSize = await innodbMinTokenSize(sql);
    const required = toBooleanMatch(terms, minTokenSize);
    const any = toBooleanMatch(terms, minTokenSize, 'any');
    const result = new Map<string, ScoreParts>();
    if (required === null || pageIds.length === 0) return result;
    const rows = await sql.all<Record<string, unknown>>(
      `SELECT s.page_id, ${TITLE} AGAINST (? IN BOOLEAN MODE) * 10 AS title,
              ${ALL} AGAINST (? IN BOOLEAN MODE) AS body,
              MATCH (s.tags) AGAINST (? IN BOOLEAN MODE) * 4 AS tags,
              ${boostSql()} AS boost, ${SCORE} AS score
       FROM page_search s JOIN pages p ON p.id = s.page_id
       WHERE s.page_id IN (${pageIds.map(() => '?').join(', ')})`,
      [any, required, any, new Date(), any, any, required, new Date(), ...pageIds],
    );
    for (const row of rows) result.set(String(row.page_id), toScoreParts(row));
    return result;
  }

  async snippets(sql: Sql, terms: SearchTerms, pageIds: string[]): Promise<Map<string, string>> {
    const result = new Map<string, string>();
    if (pageIds.length === 0) return result;
    const rows = await sql.all<{ page_id: string; body: string }>(
      `SELECT page_id, body FROM page_search WHERE page_id IN (${pageIds.map(() => '?').join(', ')})`,
      pageIds,
    );
    for (const row of rows)
      result.set(row.page_id, buildSnippet(row.body, terms.words, terms.prefixLast));
    return result;
  }
}

const TITLE = 'MATCH (s.title, s.title_grams)';
const ALL = 'MATCH (s.title, s.body, s.tags, s.title_grams, s.body_grams)';
/**
 * Title ×10, tags ×4, everything ×1, times the boost (boostSql). Parameters: the optional
 * terms twice, the required ones, the time now.
 */
const SCORE =
  `(${TITLE} AGAINST (? IN BOOLEAN MODE) * 10 + MATCH (s.tags) AGAINST (? IN BOOLEAN MODE) * 4` +
  ` + ${ALL} AGAINST (? IN BOOLEAN MODE)) * ${boostSql()}`;

/** MySQL's innodb_ft_min_token_size, read once per process (a server setting). */
let minTokenSize: number | undefined;

/** innodb_ft_min_token_size: shorter words are only in the grams columns, padded. */
export async function innodbMinTokenSize(sql: Sql): Promise<number> {
  if (minTokenSize === undefined) {
    const rows = await sql.all<{ size: number | string }>(
      'SELECT @@innodb_ft_min_token_size AS size',
    );
    minTokenSize = Number(rows[0]?.size ?? 3);
  }
  return minTokenSize;
}
