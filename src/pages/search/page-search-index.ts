import type { EntityManager } from 'typeorm';

/** What the search index keeps of a page. */
export interface SearchDocument {
  pageId: string;
  title: string;
  content: string;
  tags: string[];
}

/**
 * The full-text index behind search (SQLite FTS5, MySQL/MariaDB FULLTEXT), written inside the
 * page's own transaction so the index never disagrees with the pages. A search engine can
 * replace it by providing another implementation under PAGE_SEARCH_INDEX.
 */
export interface PageSearchIndex {
  upsert(manager: EntityManager, document: SearchDocument): Promise<void>;
  remove(manager: EntityManager, pageId: string): Promise<void>;
}

export const PAGE_SEARCH_INDEX = Symbol('PAGE_SEARCH_INDEX');
