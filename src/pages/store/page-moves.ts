import { placeholders, readQuery, Sql } from '../../common/database/sql';
import { decodePage, pageColumns, PageRecord } from '../model/page-columns';
import { Viewer, visibleSql } from './visibility-sql';

/** The reads of a move (POST /api/pages/move): which pages move, what is taken, who links. */

/** One page a move takes along, as it was when the move was planned. */
export interface MovePlanItem {
  id: string;
  slug: string;
  revision: number;
  /** Whether the mover may see it (a folder may hold pages of groups they are not in). */
  visible: boolean;
}

const IN_CHUNK = 500;

/** The condition "live at `from`, or (subtree) under `from/`" over pages aliased `p`. */
function scope(from: string, subtree: boolean): { sql: string; params: string[] } {
  if (!subtree) return { sql: 'p.live_slug = ?', params: [from] };
  // `/` + 1 is `0`: the index range of every slug below `from/`, as the tree reads a level.
  return {
    sql: '(p.live_slug = ? OR (p.live_slug >= ? AND p.live_slug < ?))',
    params: [from, `${from}/`, `${from}0`],
  };
}

/**
 * The live page at `from` and, with `subtree`, every live page under it, by slug: at most
 * `limit` of them (the caller asks for one more than it allows, to know when there are more).
 */
export const movePlan = readQuery(
  'pages.movePlan',
  async (
    sql,
    viewer: Viewer,
    from: string,
    subtree: boolean,
    limit: number,
  ): Promise<MovePlanItem[]> => {
    const where = scope(from, subtree);
    const visible = visibleSql(viewer, 'p');
    const rows = await sql.all<{ id: string; slug: string; revision: number; visible: unknown }>(
      `SELECT p.id AS id, p.live_slug AS slug, p.revision AS revision, ` +
        `CASE WHEN ${visible.sql} THEN 1 ELSE 0 END AS visible FROM pages p ` +
        `WHERE ${where.sql} ORDER BY p.live_slug LIMIT ${Number(limit)}`,
      [...visible.params, ...where.params],
    );
    // The range is by the database's collation; the prefix test is by code points.
    return rows
      .filter((r) => r.slug === from || r.slug.startsWith(`${from}/`))
      .map((r) => ({
        id: r.id,
        slug: r.slug,
        revision: Number(r.revision),
        visible: Number(r.visible) === 1,
      }));
  },
);

/** How many live pages the scope holds now (a move checks its plan inside its transaction). */
export async function countInScope(sql: Sql, from: string, subtree: boolean): Promise<number> {
  const where = scope(from, subtree);
  const [row] = await sql.all<{ n: unknown }>(
    `SELECT COUNT(*) AS n FROM pages p WHERE ${where.sql}`,
    where.params,
  );
  return Number(row?.n ?? 0);
}

/** The slugs among `slugs` that live pages use. */
export async function liveSlugsAmong(sql: Sql, slugs: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < slugs.length; i += IN_CHUNK) {
    const chunk = slugs.slice(i, i + IN_CHUNK);
    const rows = await sql.all<{ slug: string }>(
      `SELECT live_slug AS slug FROM pages WHERE live_slug IN (${placeholders(chunk.length)})`,
      chunk,
    );
    for (const row of rows) found.add(row.slug);
  }
  return found;
}

/** Live pages `viewer` may see that link to one of `slugs` (page_links), by slug. */
export const pagesLinkingTo = readQuery(
  'pages.pagesLinkingTo',
  async (sql, viewer: Viewer, slugs: string[]): Promise<{ id: string; slug: string }[]> => {
    const found = new Map<string, string>();
    const visible = visibleSql(viewer, 'p');
    for (let i = 0; i < slugs.length; i += IN_CHUNK) {
      const chunk = slugs.slice(i, i + IN_CHUNK);
      const rows = await sql.all<{ id: string; slug: string }>(
        'SELECT DISTINCT p.id AS id, p.live_slug AS slug FROM page_links l ' +
          'JOIN pages p ON p.id = l.source_page_id ' +
          `WHERE l.target_slug IN (${placeholders(chunk.length)}) AND ${visible.sql}`,
        [...chunk, ...visible.params],
      );
      for (const row of rows) found.set(row.id, row.slug);
    }
    return [...found].map(([id, slug]) => ({ id, slug })).sort((a, b) => compare(a.slug, b.slug));
  },
);

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Pages (live or binned) by id, in no particular order. */
export async function findByIds(sql: Sql, ids: readonly string[]): Promise<PageRecord[]> {
  if (ids.length === 0) return [];
  const rows = await sql.all(
    `SELECT ${pageColumns.all('p')} FROM pages p WHERE p.id IN (${placeholders(ids.length)})`,
    ids,
  );
  return rows.map(decodePage);
}

/**
 * Sets a page's live slug to a placeholder no slug can be (`~` is not a slug character), so a
 * move in which one page takes another moving page's slug never meets the unique index halfway.
 */
export async function parkLiveSlug(sql: Sql, pageId: string): Promise<void> {
  await sql.run('UPDATE pages SET live_slug = ? WHERE id = ? AND live_slug IS NOT NULL', [
    `~move~${pageId}`,
    pageId,
  ]);
}
