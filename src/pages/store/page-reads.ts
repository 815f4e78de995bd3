import { userSql } from '../../auth/public-sql';
import { placeholders, Sql } from '../../common/database/sql';
import { decodePage, pageColumns, PageHead, PageRecord } from '../model/page-columns';
import { PAGE_HEAD_ROW_SQL, PAGE_ROW_SQL, PageRow, pageRows, toPageHeadRow } from './page-rows';
import { Viewer, visibleSql } from './visibility-sql';

/**
 * Single-page reads: a statement or two on an index, well under a millisecond, so they run
 * where they are called (the page read path) rather than being handed to a worker. Plain
 * functions over `Sql`: no Nest, no TypeORM.
 */

export const MAX_BACKLINKS = 500;

const PAGE_SQL = `SELECT ${pageColumns.all('p')} FROM pages p WHERE `;

async function firstPage(
  sql: Sql,
  condition: string,
  params: unknown[],
): Promise<PageRecord | null> {
  const rows = await sql.all(PAGE_SQL + condition, params);
  return rows.length ? decodePage(rows[0]) : null;
}

/** A live page by slug, with usernames and the site-variables version. */
export async function findLiveRow(sql: Sql, slug: string): Promise<PageRow | null> {
  const [row] = await pageRows(sql, PAGE_ROW_SQL + 'p.live_slug = ?', [slug]);
  return row ?? null;
}

/** A live page by slug without its Markdown and HTML, with usernames and the site-variables version. */
export async function findLiveHead(sql: Sql, slug: string): Promise<PageRow<PageHead> | null> {
  const [row] = await sql.all(PAGE_HEAD_ROW_SQL + 'p.live_slug = ?', [slug]);
  return row ? toPageHeadRow(row) : null;
}

/** A page (live or binned) by id, with usernames and the site-variables version. */
export async function findRowById(sql: Sql, id: string): Promise<PageRow | null> {
  const [row] = await pageRows(sql, PAGE_ROW_SQL + 'p.id = ?', [id]);
  return row ?? null;
}

export function findLive(sql: Sql, slug: string): Promise<PageRecord | null> {
  return firstPage(sql, 'p.live_slug = ?', [slug]);
}

export function findById(sql: Sql, id: string): Promise<PageRecord | null> {
  return firstPage(sql, 'p.id = ?', [id]);
}

export async function liveSlugTaken(sql: Sql, slug: string): Promise<boolean> {
  const rows = await sql.all('SELECT 1 AS taken FROM pages WHERE live_slug = ? LIMIT 1', [slug]);
  return rows.length > 0;
}

/** Live pages with these slugs (import link rewriting). */
export async function findLiveBySlugs(sql: Sql, slugs: string[]): Promise<PageRecord[]> {
  if (slugs.length === 0) return [];
  const rows = await sql.all(PAGE_SQL + `p.live_slug IN (${placeholders(slugs.length)})`, slugs);
  return rows.map(decodePage);
}

/**
 * Live pages strictly under `prefix` (`docs/…`, never `docs` itself nor `docs-old/…`), by slug:
 * the range `prefix/` ≤ slug < `prefix0` (`0` follows `/`), as the tree reads a level.
 */
export async function findLiveUnder(sql: Sql, prefix: string): Promise<PageRecord[]> {
  const rows = await sql.all(
    PAGE_SQL + 'p.live_slug >= ? AND p.live_slug < ? ORDER BY p.live_slug ASC',
    [`${prefix}/`, `${prefix}0`],
  );
  // The range is by the database's collation; the prefix test is by code points.
  return rows.map(decodePage).filter((page) => page.slug.startsWith(`${prefix}/`));
}

/** Group ids and names of a page (page_groups resolved to the groups), by name. */
export function groupsOf(sql: Sql, pageId: string): Promise<{ id: string; name: string }[]> {
  return sql.all(
    `SELECT g.id AS id, g.name AS name FROM ${userSql.groups} g ` +
      'WHERE g.id IN (SELECT pg.group_id FROM page_groups pg WHERE pg.page_id = ?) ORDER BY g.name ASC',
    [pageId],
  );
}

/**
 * Visible live pages linking to `slug` or to one of the page's old slugs (redirects), not the
 * page itself, by title; at most MAX_BACKLINKS.
 */
export async function backlinks(
  sql: Sql,
  pageId: string,
  slug: string,
  viewer: Viewer,
): Promise<{ slug: string; title: string }[]> {
  const visible = visibleSql(viewer, 'p');
  const rows = await sql.all<{ slug: string; title: string }>(
    'SELECT DISTINCT p.slug AS slug, p.title AS title FROM page_links l JOIN pages p ON p.id = l.source_page_id ' +
      'WHERE l.target_slug IN (SELECT ? UNION ALL SELECT r.from_slug FROM page_redirects r WHERE r.page_id = ?) ' +
      `AND p.id <> ? AND ${visible.sql} ORDER BY p.title, p.slug LIMIT ${MAX_BACKLINKS}`,
    [slug, pageId, pageId, ...visible.params],
  );
  return rows.map((r) => ({ slug: r.slug, title: r.title }));
}

/**
 * The internal link targets of a page that are not a live page `viewer` may see: missing and
 * invisible alike (so a reader cannot tell them apart). One statement on page_links' primary
 * key and pages' live-slug index; the page read marks these links `kb-missing`.
 */
export async function missingLinkTargets(
  sql: Sql,
  pageId: string,
  viewer: Viewer,
): Promise<string[]> {
  const visible = visibleSql(viewer, 'p');
  const rows = await sql.all<{ target: string }>(
    'SELECT l.target_slug AS target FROM page_links l WHERE l.source_page_id = ? AND NOT EXISTS ' +
      `(SELECT 1 FROM pages p WHERE p.live_slug = l.target_slug AND ${visible.sql})`,
    [pageId, ...visible.params],
  );
  return rows.map((r) => r.target);
}

/**
 * Whether `viewer` may see a live page at `slug` or, with `subtree`, at or anywhere under it
 * (`slug/...`: a byte range on the live-slug index; '0' is the character after '/').
 */
export async function visibleAt(
  sql: Sql,
  slug: string,
  viewer: Viewer,
  subtree: boolean,
): Promise<boolean> {
  const visible = visibleSql(viewer, 'p');
  const where = subtree
    ? '(p.live_slug = ? OR (p.live_slug > ? AND p.live_slug < ?))'
    : 'p.live_slug = ?';
  const params = subtree ? [slug, `${slug}/`, `${slug}0`] : [slug];
  const rows = await sql.all(
    `SELECT 1 AS found FROM pages p WHERE ${where} AND ${visible.sql} LIMIT 1`,
    [...params, ...visible.params],
  );
  return rows.length > 0;
}
