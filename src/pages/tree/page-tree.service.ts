import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { cursorString, Page, PageRequest, toPage } from '../../common/http/pagination';
import { fieldProblem } from '../../common/problems/problem';
import { PageAccessService } from '../page-access.service';
import { isValidSlug, normaliseSlugField } from '../slug';
import { PageTreeNodeResponse } from './page-tree.dto';

interface TreeRow {
  name: string;
  title: string | null;
  icon: string | null;
  has_children: number | string | null;
}

/**
 * The page tree built from the slug hierarchy, one level at a time (the console loads a
 * branch when it is opened): the next segments below a slug, each with the page at that slug
 * (if any) and whether deeper pages exist. Only visible live pages count.
 */
@Injectable()
export class PageTreeService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: PageAccessService,
  ) {}

  async children(
    user: AuthUser,
    parentInput: string | undefined,
    page: PageRequest,
  ): Promise<Page<PageTreeNodeResponse>> {
    const parent = parentInput === undefined ? '' : normaliseSlugField(parentInput);
    if (parentInput !== undefined && !isValidSlug(parent)) {
      throw fieldProblem('parent', 'invalid_slug', 'parent must be a page slug.');
    }
    const prefix = parent ? `${parent}/` : '';
    const visible = this.access.visibleSql(user, 'p');
    const where = [visible.sql];
    const params: unknown[] = [[...prefix].length, ...visible.params];
    if (prefix) {
      // A byte range instead of LIKE: '/' + 1 is '0', and slugs compare byte-wise on both databases.
      where.push('p.live_slug >= ? AND p.live_slug < ?');
      params.push(prefix, `${parent}0`);
    }
    const after = page.cursor ? cursorString(page.cursor, 'after') : null;
    // INSTR and SUBSTR mean the same on SQLite and MySQL/MariaDB.
    const segment =
      "CASE WHEN INSTR(t.rest, '/') > 0 THEN SUBSTR(t.rest, 1, INSTR(t.rest, '/') - 1) ELSE t.rest END";
    const sql =
      `SELECT s.name AS name, MAX(CASE WHEN s.rest = s.name THEN s.title END) AS title, ` +
      `MAX(CASE WHEN s.rest = s.name THEN s.icon END) AS icon, ` +
      `MAX(CASE WHEN s.rest = s.name THEN 0 ELSE 1 END) AS has_children FROM (` +
      `SELECT t.rest AS rest, t.title AS title, t.icon AS icon, ${segment} AS name FROM (` +
      `SELECT SUBSTR(p.live_slug, ? + 1) AS rest, p.title AS title, p.icon AS icon FROM pages p ` +
      `WHERE ${where.join(' AND ')}) t) s ` +
      (after !== null ? 'WHERE s.name > ? ' : '') +
      `GROUP BY s.name ORDER BY s.name LIMIT ${page.limit + 1}`;
    if (after !== null) params.push(after);
    const rows: TreeRow[] = await this.dataSource.query(sql, params);
    return toPage(
      rows,
      page.limit,
      (r) => ({
        slug: prefix + r.name,
        name: r.name,
        title: r.title ?? null,
        icon: r.icon ?? null,
        hasChildren: Number(r.has_children) === 1,
      }),
      (r) => ({ after: r.name }),
    );
  }
}
