import type { Sql } from '../../common/database/sql';
import { userSql } from '../../auth/public-sql';
import { Viewer, visibleSql } from './visibility-sql';

/**
 * `tag_counts` (migration TagCounts): per tag, the live pages carrying it (`live_count`) and
 * those of them in no group (`open_count`). Kept in the transaction of every write that
 * changes a page's tags, groups or liveness: the page's share is taken out before the change
 * and put back after it, read from the tables themselves so no caller has to know it.
 */

/** A page's share of the counts: its tags, and whether it is live and in no group. */
async function shareOf(
  sql: Sql,
  pageId: string,
): Promise<{ tags: string[]; live: boolean; open: boolean }> {
  const [page] = await sql.all<{ live: number | string; open: number | string }>(
    'SELECT CASE WHEN p.live_slug IS NOT NULL THEN 1 ELSE 0 END AS live, ' +
      'CASE WHEN NOT EXISTS (SELECT 1 FROM page_groups g WHERE g.page_id = p.id) THEN 1 ELSE 0 END AS open ' +
      'FROM pages p WHERE p.id = ?',
    [pageId],
  );
  if (!page) return { tags: [], live: false, open: false };
  const tags = await sql.all<{ tag: string }>('SELECT tag FROM page_tags WHERE page_id = ?', [
    pageId,
  ]);
  return {
    // One order for every writer, so MySQL's row locks on tag_counts are taken in one order.
    tags: tags.map((t) => t.tag).sort(),
    live: Number(page.live) === 1,
    open: Number(page.open) === 1,
  };
}

/**
 * Adds (`sign` 1) or takes out (-1) the page's current share; `asLive` counts it as live
 * whatever its row says (the bin takes out the share a page had before it was binned).
 */
export async function countPage(
  sql: Sql,
  pageId: string,
  sign: 1 | -1,
  { asLive = false }: { asLive?: boolean } = {},
): Promise<void> {
  const share = await shareOf(sql, pageId);
  if (!(share.live || asLive) || share.tags.length === 0) return;
  const statement = sql.dialect.upsert('tag_counts', ['tag', 'live_count', 'open_count'], ['tag'], {
    live_count: `live_count + ${sql.dialect.inserted('live_count')}`,
    open_count: `open_count + ${sql.dialect.inserted('open_count')}`,
  });
  for (const tag of share.tags) await sql.run(statement, [tag, sign, share.open ? sign : 0]);
}

/**
 * Tags with the number of live pages `viewer` may see carrying each, by name, after `after`.
 * Administrators read `live_count`, viewers `open_count`; a viewer with groups adds the live
 * pages of those groups (usually few), so the answer is exactly the visibility rule's.
 */
export async function visibleTagCounts(
  sql: Sql,
  viewer: Viewer,
  after: string | undefined,
  limit: number,
): Promise<{ name: string; count: number }[]> {
  const from =
    after === undefined ? { sql: '', params: [] } : { sql: ' AND tag > ?', params: [after] };
  const column = viewer.role === 'admin' ? 'live_count' : 'open_count';
  const counted = `SELECT tag AS name, ${column} AS count FROM tag_counts WHERE ${column} > 0${from.sql}`;
  let rows: { name: string; count: number | string }[];
  if (viewer.paths) {
    // A path-scoped credential: count the pages it may see (its paths are few and narrow).
    const visible = visibleSql(viewer, 'p');
    rows = await sql.all(
      'SELECT t.tag AS name, COUNT(*) AS count FROM page_tags t INNER JOIN pages p ON p.id = t.page_id ' +
        `WHERE ${visible.sql}${from.sql.replace('tag', 't.tag')} GROUP BY t.tag ORDER BY t.tag ASC LIMIT ${Number(limit)}`,
      [...visible.params, ...from.params],
    );
  } else if (viewer.role === 'admin' || viewer.groups.length === 0) {
    rows = await sql.all(`${counted} ORDER BY tag ASC LIMIT ${Number(limit)}`, from.params);
  } else {
    const restricted =
      'SELECT t.tag AS name, COUNT(*) AS count FROM ' +
      `(SELECT DISTINCT vpg.page_id FROM page_groups vpg WHERE vpg.group_id IN (${userSql.groupIdsNamed(viewer.groups.length)})) g ` +
      'INNER JOIN pages p ON p.id = g.page_id INNER JOIN page_tags t ON t.page_id = p.id ' +
      `WHERE p.live_slug IS NOT NULL${from.sql.replace('tag', 't.tag')} GROUP BY t.tag`;
    rows = await sql.all(
      `SELECT u.name AS name, SUM(u.count) AS count FROM (${counted} UNION ALL ${restricted}) u ` +
        `GROUP BY u.name ORDER BY u.name ASC LIMIT ${Number(limit)}`,
      [...from.params, ...viewer.groups, ...from.params],
    );
  }
  return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}
