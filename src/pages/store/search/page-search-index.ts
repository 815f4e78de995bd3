import type { Sql } from '../../../common/database/sql';
import { gramsOf } from '../../model/search/search-grams';
import type { SearchTerms } from '../../model/search/search-terms';
import { markdownToPlainText } from '../../model/search/search-text';
import type { SqlCondition } from '../../../common/database/sql';

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
   * Ids of the pages matching the terms (terms.groups is never empty), best first (title hits
   * weigh most, then tags, then body) or most recently updated first: `count` of them from
   * position `offset`, each meeting `options.filter` (a condition over pages aliased `p`).
   * Visibility is the caller's business.
   */
  search(
    sql: Sql,
    terms: SearchTerms,
    offset: number,
    count: number,
    options?: SearchOptions,
  ): Promise<string[]>;
  /** Each page's score and its parts, for `GET /api/search/explain` (administrators). */
  explain(sql: Sql, terms: SearchTerms, pageIds: string[]): Promise<Map<string, ScoreParts>>;
  /** HTML snippets (escaped, hits in `<mark>`) of the body of some matching pages, by page id. */
  snippets(sql: Sql, terms: SearchTerms, pageIds: string[]): Promise<Map<string, string>>;
}

/** A hit's score (higher is better) as the index computed it, and where it came from. */
export interface ScoreParts {
  score: number;
  /** Text relevance per field, before the boost (each already weighted). */
  title: number;
  body: number;
  tags: number;
  /** The page's boost factor: verified, review current, deprecated (docs/search.md). */
  boost: number;
}

/**
 * The ranking boost, the same on both databases, as SQL over pages aliased `p` (a factor
 * around 1): verified pages ×1.2, pages whose review is not due ×1.1, deprecated pages ×0.5.
 * It takes one parameter: the time now.
 */
export function boostSql(): string {
  return (
    `(1.0 + CASE WHEN p.verified = 1 THEN 0.2 ELSE 0 END` +
    ` + CASE WHEN p.next_review_at IS NOT NULL AND p.next_review_at > ? THEN 0.1 ELSE 0 END)` +
    ` * CASE WHEN p.lifecycle = 'deprecated' THEN 0.5 ELSE 1.0 END`
  );
}

/** How hits are chosen and ordered beyond the words. */
export interface SearchOptions {
  /** A condition over the pages (aliased `p`) every hit meets: the query's filters. */
  filter?: SqlCondition;
  /** `relevance` (default) or `updated`: most recently updated first. */
  sort?: 'relevance' | 'updated';
}

export const PAGE_SEARCH_INDEX = Symbol('PAGE_SEARCH_INDEX');

/** The indexed text of a document: title, plain body, tags and the grams of each. */
export function indexedColumns(document: SearchDocument, minTokenSize: number): string[] {
  const body = markdownToPlainText(document.content);
  const tags = document.tags.join(' ');
  return [
    document.title,
    body,
    tags,
    gramsOf(document.title, { minTokenSize }),
    gramsOf(`${body} ${tags}`, { minTokenSize }),
  ];
}
