import { readQueriesByName } from '../../common/database/sql';
import {
  archiveBatch,
  graph,
  listBin,
  listRecent,
  listReviewDue,
  listTags,
  mediaReferences,
  visibleLiveSlugs,
} from './page-lists';
import { brokenLinks } from './link-report';
import { listTreeLevel } from './page-tree';
import { movePlan, pagesLinkingTo } from './page-moves';
import { listRedirects, redirectsToSlugs } from './redirects';
import { listRevisions } from './revisions';
import { explainHits, pageIdsOfSlugs, searchPages } from './search/search-pages';
import { suggestPages } from './search/suggest-pages';
import { correctSpelling } from './search/spelling';

/**
 * Every read of the pages store that `Database.read` may hand to a worker thread, by name: a
 * worker imports this map (plain functions, no Nest) and runs the named query on its own
 * read-only connection with the arguments it was sent.
 */
export const PAGES_READ_QUERIES = readQueriesByName([
  listRecent,
  listBin,
  listTags,
  listTreeLevel,
  graph,
  listReviewDue,
  mediaReferences,
  visibleLiveSlugs,
  archiveBatch,
  listRevisions,
  searchPages,
  explainHits,
  pageIdsOfSlugs,
  suggestPages,
  correctSpelling,
  brokenLinks,
  listRedirects,
  redirectsToSlugs,
  movePlan,
  pagesLinkingTo,
]);

/** The name the SQLite read pool's workers look the registry up by (database.module.ts). */
export const READ_QUERIES = PAGES_READ_QUERIES;
