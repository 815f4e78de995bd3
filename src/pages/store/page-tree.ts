import { allOf, readQuery, SqlCondition } from '../../common/database/sql';
import { Viewer, visibleSql } from './visibility-sql';

export interface TreeLevelRow {
  name: string;
  title: string | null;
  icon: string | null;
  hasChildren: boolean;
}

/**
 * One level of the slug hierarchy below `parent` ('' for the top): the next segment of each
 * visible live slug, grouped, with the title and icon of the page at that slug (null for a
 * folder of deeper pages) and whether deeper pages exist. `after` continues behind a name.
 * Slugs compare byte-wise on both databases, so the subtree is the index range
 * `parent/` <= live_slug < `parent0` ('/' + 1 is '0'). INSTR and SUBSTR mean the same on SQLite
 * and MySQL/MariaDB (counted in characters).
 */
export const listTreeLevel = readQuery(
  'pages.listTreeLevel',
  async (
    sql,
    viewer: Viewer,
    parent: string,
    after: string | undefined,
    limit: number,
  ): Promise<TreeLevelRow[]> => {
    const prefix = parent ? `${parent}/` : '';
    const where: SqlCondition[] = [visibleSql(viewer, 'p')];
    if (prefix)
      where.push({ sql: 'p.live_slug >= ? AND p.live_slug < ?', params: [prefix, `${parent}0`] });
    const condition = allOf(where);
    const segment =
      "CASE WHEN INSTR(t.rest, '/') > 0 THEN SUBSTR(t.rest, 1, INSTR(t.rest, '/') - 1) ELSE t.rest END";
    const rows = await sql.all<{
      name: string;
      title: string | null;
      icon: string | null;
      has_children: number | string;
    }>(
      'SELECT s.name AS name, MAX(CASE WHEN s.rest = s.name THEN s.title END) AS title, ' +
        'MAX(CASE WHEN s.rest = s.name THEN s.icon END) AS icon, ' +
        'MAX(CASE WHEN s.rest = s.name THEN 0 ELSE 1 END) AS has_children FROM (' +
        `SELECT t.rest AS rest, t.title AS title, t.icon AS icon, ${segment} AS name FROM (` +
        'SELECT SUBSTR(p.live_slug, ? + 1) AS rest, p.title AS title, p.icon AS icon FROM pages p ' +
        `WHERE ${condition.sql}) t) s ` +
        (after !== undefined ? 'WHERE s.name > ? ' : '') +
        `GROUP BY s.name ORDER BY s.name LIMIT ${Number(limit)}`,
      [[...prefix].length, ...condition.params, ...(after !== undefined ? [after] : [])],
    );
    return rows.map((r) => ({
      name: r.name,
      title: r.title ?? null,
      icon: r.icon ?? null,
      hasChildren: Number(r.has_children) === 1,
    }));
  },
  { lagTolerant: true },
);
