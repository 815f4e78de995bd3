import { readQuery, Sql } from '../../../common/database/sql';
import { SearchTerms, toBooleanMatch, toFts5Match } from '../../model/search/search-terms';
import { Viewer, visibleSql } from '../visibility-sql';
import { innodbMinTokenSize } from './mysql-page-search.index';
import { SearchCache } from './search-cache';

/** Title matches read from the index per suggestion request, before visibility. */
const CANDIDATES = 200;

export interface Suggestion {
  slug: string;
  title: string;
}

/** Live pages `viewer` may see whose slug starts with `prefix` (a range on the live-slug index). */
async function bySlug(
  sql: Sql,
  prefix: string,
  viewer: Viewer,
  limit: number,
): Promise<Suggestion[]> {
  const visible = visibleSql(viewer, 'p');
  return sql.all<Suggestion>(
    'SELECT p.live_slug AS slug, p.title AS title FROM pages p ' +
      `WHERE p.live_slug >= ? AND p.live_slug < ? AND ${visible.sql} ORDER BY p.live_slug LIMIT ${Number(limit)}`,
    [prefix, `${prefix}\u{10FFFF}`, ...visible.params],
  );
}

/**
 * Live pages `viewer` may see whose title holds every word (the last as a prefix), most
 * recently saved first: at most CANDIDATES index rows are read, whatever the prefix (a
 * 2-letter prefix reads one doclist of SQLite's prefix index, in rowid order, and stops).
 */
async function byTitle(
  sql: Sql,
  terms: SearchTerms,
  viewer: Viewer,
  limit: number,
): Promise<Suggestion[]> {
  const visible = visibleSql(viewer, 'p');
  const candidates = await sql.dialect.choose({
    sqlite: async () => ({
      from: 'SELECT page_id FROM page_search WHERE page_search MATCH ? ORDER BY rowid DESC',
      match: toFts5Match(terms, 'title'),
    }),
    mysql: async () => ({
      from: 'SELECT page_id FROM page_search WHERE MATCH(title, title_grams) AGAINST (? IN BOOLEAN MODE)',
      match: toBooleanMatch(terms, await innodbMinTokenSize(sql)),
    }),
  })();
  if (candidates.match === null) return [];
  return sql.all<Suggestion>(
    `SELECT p.live_slug AS slug, p.title AS title FROM (${candidates.from} LIMIT ${CANDIDATES}) s ` +
      `JOIN pages p ON p.id = s.page_id WHERE ${visible.sql} LIMIT ${Number(limit)}`,
    [candidates.match, ...visible.params],
  );
}

/**
 * Suggestions for the quick switcher: pages whose slug starts with the text (by slug), then
 * pages whose title holds its words (most recently saved first); titles that start with the
 * text ahead of the others.
 */
export async function suggestVisiblePages(
  sql: Sql,
  text: string,
  terms: SearchTerms,
  viewer: Viewer,
  limit: number,
): Promise<Suggestion[]> {
  const slugPrefix = text.toLowerCase().replace(/^\/+/, '');
  const [slugs, titles] = [
    slugPrefix === '' ? [] : await bySlug(sql, slugPrefix, viewer, limit),
    terms.words.length === 0 ? [] : await byTitle(sql, terms, viewer, CANDIDATES),
  ];
  const folded = text.toLowerCase();
  const rank = (s: Suggestion) => (s.title.toLowerCase().startsWith(folded) ? 0 : 1);
  const seen = new Set<string>();
  const all: Suggestion[] = [];
  for (const s of [...slugs, ...titles]) {
    if (seen.has(s.slug)) continue;
    seen.add(s.slug);
    all.push({ slug: s.slug, title: s.title });
  }
  // Stable: slug matches stay ahead of title matches of the same rank.
  return all
    .map((s, i) => ({ s, i }))
    .sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i)
    .slice(0, limit)
    .map(({ s }) => s);
}

const cache = new SearchCache<Suggestion[]>();

/** The quick switcher's suggestions as a ReadQuery (SQLite read pool), cached per search generation. */
export const suggestPages = readQuery(
  'suggestPages',
  async (
    sql: Sql,
    text: string,
    terms: SearchTerms,
    viewer: Viewer,
    limit: number,
  ): Promise<Suggestion[]> => {
    const generation = await sql.searchGeneration();
    const key = JSON.stringify([text, viewer.role, [...viewer.groups].sort(), limit]);
    const cached = generation === null ? undefined : cache.get(generation, key);
    if (cached) return cached;
    const found = await suggestVisiblePages(sql, text, terms, viewer, limit);
    if (generation !== null) cache.set(generation, key, found);
    return found;
  },
  { lagTolerant: true },
);
