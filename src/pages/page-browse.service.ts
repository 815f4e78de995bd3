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
import type { PageArchiveRecord } from './model/page-columns';
import type { MediaReferences, ReviewDuePage } from './model/page-shapes';
import { PagesRepository } from './store/pages.repository';
import type { Viewer } from './store/visibility-sql';

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

  /**
   * CONTRACTS: the pages referencing a media item as far as `viewer` may know them: slugs of those it
   * may see (live and visible; admins also the bin), the others only counted.
   */
  async mediaReferences(mediaId: string, viewer: Viewer): Promise<MediaReferences> {
    const rows = await this.pages.mediaReferences(mediaId, viewer);
    const shown = rows.filter((r) => r.listed);
    return {
      slugs: [...new Set(shown.map((r) => r.slug))].sort(),
      hiddenReferences: rows.length - shown.length,
    };
  }

  /**
   * CONTRACTS: live pages whose next review date has passed, oldest first; `after` (the last
   * page of the previous batch) continues after it.
   */
  reviewDueBatch(
    now: Date,
    limit: number,
    after?: Pick<ReviewDuePage, 'id' | 'nextReviewAt'>,
  ): Promise<ReviewDuePage[]> {
    return this.pages.listReviewDue(now, limit, after);
  }

  /** The slugs among `slugs` that are live pages `user` may see (archive selections). */
  visibleLiveSlugs(user: AuthUser, slugs: string[]): Promise<string[]> {
    return this.pages.visibleLiveSlugs(user, slugs);
  }

  /**
   * One batch of pages for an archive: live pages `user` may see, by slug after `afterSlug`
   * (only `slugs` when given), with their owners' usernames and the change summary of their
   * current revision; never the rendered HTML.
   */
  archiveBatch(
    user: AuthUser,
    slugs: string[] | undefined,
    afterSlug: string | null,
    limit: number,
  ): Promise<{ page: PageArchiveRecord; owner: string | null; summary: string | null }[]> {
    return this.pages.archiveBatch(user, slugs, afterSlug, limit);
  }
}
