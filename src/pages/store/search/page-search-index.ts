import type { Sql } from '../../../common/database/sql';
import type { SearchTerms } from '../../search/search-terms';

/** What the search index keeps of a page. */
export interface SearchDocument {
  pageId: string;
  title: string;
  content: string;
  tags: string[];
}

/**
 * The full-text index behind search (SQLite FTS5, MySQL/MariaDB FULLTEXT), written inside the
 * page's own transaction so the index never disagrees with the pages. Every method takes the
 * `Sql` to run on (the page write's transaction, or a reader's connection), so the
 * implementations are plain objects that also work in a worker thread. A search engine can
 * replace it by providing another implementation under PAGE_SEARCH_INDEX.
 */
export interface PageSearchIndex {
  upsert(sql: Sql, document: SearchDocument): Promise<void>;
  remove(sql: Sql, pageId: string): Promise<void>;
  /**
   * Ids of the pages matching every word, best first (title hits weigh most, then tags, then
   * body): `count` of them from position `offset`. Visibility is the caller's business.
   */
  search(sql: Sql, terms: SearchTerms, offset: number, count: number): Promise<string[]>;
  /** HTML snippets (escaped, hits in `<mark>`) of the body of some matching pages, by page id. */
  snippets(sql: Sql, terms: SearchTerms, pageIds: string[]): Promise<Map<string, string>>;
}

export const PAGE_SEARCH_INDEX = Symbol('PAGE_SEARCH_INDEX');
