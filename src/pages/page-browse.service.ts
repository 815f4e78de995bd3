import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { cursorString, Page, PageRequest, toPage } from '../common/http/pagination';
import { PageLinkEntity } from './entities/page-link.entity';
import { PageTagEntity } from './entities/page-tag.entity';
import { PageEntity } from './entities/page.entity';
import { PageAccessService } from './page-access.service';
import { cursorDate, dateParameter, hotRead, listSummaryRows } from './store/page-queries';
import {
  GraphResponse,
  PageLinkResponse,
  PageSummaryResponse,
  TagResponse,
  toPageSummary,
} from './pages.mapper';

export const MAX_BACKLINKS = 500;

/** Lists over visible pages: recent, tags, graph, backlinks. */
@Injectable()
export class PageBrowseService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: PageAccessService,
  ) {}

  /** Visible live pages, most recently updated first. */
  async listRecent(
    user: AuthUser,
    page: PageRequest,
    filter: { tag?: string } = {},
  ): Promise<Page<PageSummaryResponse>> {
    const where: { sql: string; params: unknown[] }[] = [this.access.visibleSql(user, 'p')];
    if (filter.tag !== undefined) {
      where.push({
        sql: 'EXISTS (SELECT 1 FROM page_tags ft WHERE ft.page_id = p.id AND ft.tag = ?)',
        params: [filter.tag.trim().normalize('NFC').toLowerCase()],
      });
    }
    if (page.cursor) {
      const updatedAt = dateParameter(this.dataSource, cursorDate(page.cursor, 'u'));
      where.push({
        sql: 'p.updated_at < ? OR (p.updated_at = ? AND p.id < ?)',
        params: [updatedAt, updatedAt, cursorString(page.cursor, 'i')],
      });
    }
    const rows = await listSummaryRows(this.dataSource, where, page.limit + 1);
    return toPage(rows, page.limit, toPageSummary, (r) => ({
      u: r.page.updatedAt.toISOString(),
      i: r.page.id,
    }));
  }

  /** Tags with the number of visible pages carrying each, by name. */
  async listTags(user: AuthUser, page: PageRequest): Promise<Page<TagResponse>> {
    const query = this.dataSource.manager
      .createQueryBuilder(PageTagEntity, 't')
      .innerJoin(PageEntity, 'p', 'p.id = t.page_id')
      .select('t.tag', 'name')
      .addSelect('COUNT(*)', 'count')
      .groupBy('t.tag')
      .orderBy('t.tag', 'ASC')
      .limit(page.limit + 1);
    this.access.restrictToVisible(query, user);
    if (page.cursor)
      query.andWhere('t.tag > :after', { after: cursorString(page.cursor, 'after') });
    const rows: { name: string; count: string | number }[] = await query.getRawMany();
    return toPage(
      rows,
      page.limit,
      (r) => ({ name: r.name, count: Number(r.count) }),
      (r) => ({ after: r.name }),
    );
  }

  /** Visible pages as nodes; links between two visible live pages as edges. */
  async graph(user: AuthUser): Promise<GraphResponse> {
    const nodesQuery = this.dataSource.manager
      .createQueryBuilder(PageEntity, 'p')
      .select(['p.id', 'p.slug', 'p.liveSlug', 'p.title', 'p.tags', 'p.groupNames'])
      .orderBy('p.slug', 'ASC');
    this.access.restrictToVisible(nodesQuery, user);
    const edgesQuery = this.dataSource.manager
      .createQueryBuilder(PageLinkEntity, 'l')
      .innerJoin(PageEntity, 's', 's.id = l.source_page_id')
      .innerJoin(PageEntity, 'd', 'd.live_slug = l.target_slug')
      .select('s.live_slug', 'source')
      .addSelect('d.live_slug', 'target')
      .where('s.id <> d.id')
      .orderBy('s.live_slug', 'ASC')
      .addOrderBy('d.live_slug', 'ASC');
    this.access.restrictToVisible(edgesQuery, user, 's');
    this.access.restrictToVisible(edgesQuery, user, 'd');
    const [nodes, edges] = await Promise.all([
      nodesQuery.getMany(),
      edgesQuery.getRawMany<{ source: string; target: string }>(),
    ]);
    return {
      nodes: nodes.map((p) => ({ slug: p.slug, title: p.title, tags: p.tags })),
      edges: edges.map((e) => ({ from: e.source, to: e.target })),
    };
  }

  /** Visible live pages linking to `slug`, by title (plain SQL: it runs on every page read). */
  async backlinks(pageId: string, slug: string, user: AuthUser): Promise<PageLinkResponse[]> {
    const visible = this.access.visibleSql(user, 'p');
    const rows = await hotRead<PageLinkResponse>(
      this.dataSource,
      'SELECT p.slug AS slug, p.title AS title FROM page_links l JOIN pages p ON p.id = l.source_page_id ' +
        `WHERE l.target_slug = ? AND p.id <> ? AND ${visible.sql} ORDER BY p.title, p.slug LIMIT ${MAX_BACKLINKS}`,
      [slug, pageId, ...visible.params],
    );
    return rows.map((r) => ({ slug: r.slug, title: r.title }));
  }
}
