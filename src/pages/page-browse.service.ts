import { Injectable } from '@nestjs/common';
import { AuthUser } from '../common/auth/auth-user';
import { cursorDate, cursorString, Paged, ListRequest, toPaged } from '../common/http/pagination';
import type { ReviewDueItemResponse } from './dto/page-response.dto';
import {
  GraphResponse,
  PageLinkResponse,
  PageSummaryResponse,
  TagResponse,
  toPageSummary,
} from './pages.mapper';
import { PagesRepository } from './store/pages.repository';

/** Lists over visible pages: recent, tags, graph, backlinks. */
@Injectable()
export class PageBrowseService {
  constructor(private readonly pages: PagesRepository) {}

  /** Visible live pages, most recently updated first. */
  async listRecent(
    user: AuthUser,
    page: ListRequest,
    filter: { tag?: string } = {},
  ): Promise<Paged<PageSummaryResponse>> {
    const rows = await this.pages.listRecent(
      user,
      {
        tag:
          filter.tag === undefined ? undefined : filter.tag.trim().normalize('NFC').toLowerCase(),
        after: page.cursor
          ? { updatedAt: cursorDate(page.cursor, 'u'), id: cursorString(page.cursor, 'i') }
          : undefined,
      },
      page.limit + 1,
    );
    return toPaged(rows, page.limit, toPageSummary, (r) => ({
      u: r.page.updatedAt.toISOString(),
      i: r.page.id,
    }));
  }

  /** Live pages past their review date (every page: admins only), oldest date first. */
  async listReviewDue(
    page: ListRequest,
    now = new Date(),
    paths?: string[],
  ): Promise<Paged<ReviewDueItemResponse>> {
    const after = page.cursor
      ? { nextReviewAt: cursorDate(page.cursor, 'r'), id: cursorString(page.cursor, 'i') }
      : undefined;
    const rows = await this.pages.listReviewDue(now, page.limit + 1, after, paths);
    return toPaged(
      rows,
      page.limit,
      (r) => ({
        slug: r.slug,
        title: r.title,
        owner: r.ownerName,
        nextReviewAt: r.nextReviewAt.toISOString(),
      }),
      (r) => ({ r: r.nextReviewAt.toISOString(), i: r.id }),
    );
  }

  /** Tags with the number of visible pages carrying each, by name. */
  async listTags(user: AuthUser, page: ListRequest): Promise<Paged<TagResponse>> {
    const after = page.cursor ? cursorString(page.cursor, 'after') : undefined;
    const rows = await this.pages.listTags(user, after, page.limit + 1);
    return toPaged(
      rows,
      page.limit,
      (r) => r,
      (r) => ({ after: r.name }),
    );
  }

  /** Visible pages as nodes; links between two visible live pages as edges. */
  graph(user: AuthUser): Promise<GraphResponse> {
    return this.pages.graph(user);
  }

  /** Visible live pages linking to `slug`, by title (it runs on every page read). */
  backlinks(pageId: string, slug: string, user: AuthUser): Promise<PageLinkResponse[]> {
    return this.pages.backlinks(pageId, slug, user);
  }
}
