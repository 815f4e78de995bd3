import type { Sql } from '../../../common/database/sql';
import { PageSearchIndex, SearchDocument } from './page-search-index';
import { SearchTerms, toBooleanMatch } from '../../search/search-terms';
import { buildSnippet, markdownToPlainText } from '../../search/search-text';

/**
 * MySQL/MariaDB: InnoDB table `page_search(page_id, title, body, tags)` with FULLTEXT indexes
 * on (title), (tags) and (title, body, tags), queried with MATCH ... AGAINST in BOOLEAN MODE.
 * Every word is required in the combined index; title and tag hits add weighted relevance.
 * InnoDB builds no snippets, so they are cut in code around the first hit.
 */
export class MysqlPageSearchIndex implements PageSearchIndex {
  private minTokenSize?: number;

  async upsert(sql: Sql, document: SearchDocument): Promise<void> {
    await sql.run(
      `INSERT INTO page_search (page_id, title, body, tags) VALUES (?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE title = VALUES(title), body = VALUES(body), tags = VALUES(tags)`,
      [
        document.pageId,
        document.title,
        markdownToPlainText(document.content),
        document.tags.join(' '),
      ],
    );
  }

  async remove(sql: Sql, pageId: string): Promise<void> {
    await sql.run('DELETE FROM page_search WHERE page_id = ?', [pageId]);
  }

  async search(sql: Sql, terms: SearchTerms, offset: number, count: number): Promise<string[]> {
    const minTokenSize = await this.tokenSize(sql);
    const required = toBooleanMatch(terms, minTokenSize);
    if (required === null) return [];
    // The boosts use the same words without `+`, so a title holding some of them still counts.
    const any = required.replace(/(^| )\+/g, '$1');
    const rows = await sql.all<{ page_id: string }>(
      `SELECT page_id,
              MATCH (title) AGAINST (? IN BOOLEAN MODE) * 10
            + MATCH (tags) AGAINST (? IN BOOLEAN MODE) * 4
            + MATCH (title, body, tags) AGAINST (? IN BOOLEAN MODE) AS score
       FROM page_search
       WHERE MATCH (title, body, tags) AGAINST (? IN BOOLEAN MODE)
       ORDER BY score DESC, page_id LIMIT ? OFFSET ?`,
      [any, any, required, required, count, offset],
    );
    return rows.map((r) => r.page_id);
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

  /** innodb_ft_min_token_size: shorter words are not in the index, so they cannot be required. */
  private async tokenSize(sql: Sql): Promise<number> {
    if (this.minTokenSize === undefined) {
      const rows = await sql.all<{ size: number | string }>(
        'SELECT @@innodb_ft_min_token_size AS size',
      );
      this.minTokenSize = Number(rows[0]?.size ?? 3);
    }
    return this.minTokenSize;
  }
}
