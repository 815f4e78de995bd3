import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  And,
  DataSource,
  EntityManager,
  Equal,
  In,
  IsNull,
  LessThanOrEqual,
  MoreThan,
  Not,
  Repository,
} from 'typeorm';
import { UsersService } from '../auth/users.service';
import { AuthUser } from '../common/auth/auth-user';
import { etagMatches } from '../common/http/etag';
import { NotFoundProblem } from '../common/problems/problem';
import { PageMediaRefEntity } from './entities/page-media-ref.entity';
import { PageEntity } from './entities/page.entity';
import { MarkdownRenderer } from './rendering/markdown-renderer';
import { PageAccessService } from './page-access.service';
import { PageBrowseService } from './page-browse.service';
import { findLivePageRow, findPageRowById, PageRow } from './store/page-queries';
import { PageWriterService } from './page-writer.service';
import { PageResponse, toPageResponse } from './pages.mapper';
import { ImportedPage, ImportOutcome, ReviewDuePage } from './pages.types';
import { SiteVariablesService } from './site-variables.service';
import { normaliseSlug } from './slug';
import { mergeVariables, referencedVariableNames } from './variables';

/** A page read: the response and its ETag. */
export interface PageRead {
  etag: string;
  body: PageResponse;
}

export function etagOf(revision: number): string {
  return `"${revision}"`;
}

/**
 * Page reads and the services other features call (CONTRACTS.md). Writes live in
 * PageWriterService, lists in PageBrowseService; visibility in PageAccessService.
 */
@Injectable()
export class PagesService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(PageEntity) private readonly pages: Repository<PageEntity>,
    @InjectRepository(PageMediaRefEntity)
    private readonly mediaRefs: Repository<PageMediaRefEntity>,
    private readonly access: PageAccessService,
    private readonly users: UsersService,
    private readonly browse: PageBrowseService,
    private readonly writer: PageWriterService,
    private readonly renderer: MarkdownRenderer,
    private readonly siteVariables: SiteVariablesService,
  ) {}

  /** CONTRACTS: the live page if `user` may see it, else 404 `page_not_found`. */
  async getVisible(slug: string, user: AuthUser): Promise<PageEntity> {
    return (await this.visibleRow(slug, user)).page;
  }

  /** A visible page with HTML and backlinks; only the ETag when `ifNoneMatch` names it (304). */
  async read(
    slug: string,
    user: AuthUser,
    ifNoneMatch?: string,
  ): Promise<PageRead | { etag: string; notModified: true }> {
    const row = await this.visibleRow(slug, user);
    const etag = etagOf(row.page.revision);
    if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };
    return this.respond(row, user);
  }

  /** Response for a page just written by `user` (create, update, restore). */
  async readById(pageId: string, user: AuthUser): Promise<PageRead> {
    const row = await findPageRowById(this.dataSource, pageId);
    if (!row || !this.access.canSee(row.page, user)) throw new NotFoundProblem('page');
    return this.respond(row, user);
  }

  async raw(slug: string, user: AuthUser): Promise<{ etag: string; markdown: string }> {
    const page = await this.getVisible(slug, user);
    return { etag: etagOf(page.revision), markdown: page.content };
  }

  /** CONTRACTS: saved values, site-wide overridden by the page's own. */
  async resolveVariables(page: PageEntity): Promise<Record<string, string>> {
    const site = await this.siteVariables.get();
    return mergeVariables(site.values, page.variables);
  }

  /** CONTRACTS: names defined for the page or site-wide AND referenced by its content. */
  async usableVariableNames(page: PageEntity): Promise<string[]> {
    const defined = await this.resolveVariables(page);
    return referencedVariableNames(page.content).filter((name) =>
      Object.prototype.hasOwnProperty.call(defined, name),
    );
  }

  /** CONTRACTS: see PageWriterService.upsertImported. */
  upsertImported(
    manager: EntityManager,
    doc: ImportedPage,
    actor: AuthUser,
  ): Promise<ImportOutcome> {
    return this.writer.upsertImported(manager, doc, actor);
  }

  /** CONTRACTS: live pages with these slugs (normalised), for import link rewriting. */
  findLiveBySlugs(slugs: string[]): Promise<PageEntity[]> {
    const normalised = [...new Set(slugs.map(normaliseSlug))];
    if (normalised.length === 0) return Promise.resolve([]);
    return this.pages.findBy({ liveSlug: In(normalised) });
  }

  /** CONTRACTS: slugs of pages (live or in the bin) whose Markdown references the image or attachment. */
  async slugsReferencingMedia(mediaId: string): Promise<string[]> {
    const rows: { slug: string }[] = await this.mediaRefs
      .createQueryBuilder('r')
      .innerJoin(PageEntity, 'p', 'p.id = r.page_id')
      .select('p.slug', 'slug')
      .where('r.media_id = :mediaId', { mediaId: mediaId.toLowerCase() })
      .getRawMany();
    return [...new Set(rows.map((r) => r.slug))].sort();
  }

  /**
   * CONTRACTS: live pages whose next review date has passed, oldest first; `after` (the last
   * page of the previous batch) continues after it.
   */
  async listReviewDue(
    now: Date,
    limit: number,
    after?: Pick<ReviewDuePage, 'id' | 'nextReviewAt'>,
  ): Promise<ReviewDuePage[]> {
    const live = { liveSlug: Not(IsNull()) };
    const rows = await this.pages.find({
      select: { id: true, slug: true, title: true, ownerId: true, nextReviewAt: true },
      where: after
        ? [
            { ...live, nextReviewAt: And(MoreThan(after.nextReviewAt), LessThanOrEqual(now)) },
            { ...live, nextReviewAt: Equal(after.nextReviewAt), id: MoreThan(after.id) },
          ]
        : { ...live, nextReviewAt: LessThanOrEqual(now) },
      order: { nextReviewAt: 'ASC', id: 'ASC' },
      take: limit,
    });
    return rows.map((p) => ({
      id: p.id,
      slug: p.slug,
      title: p.title,
      ownerId: p.ownerId,
      nextReviewAt: p.nextReviewAt!,
    }));
  }

  /** CONTRACTS: whether an active user may see a live page, by the same rule as every read. */
  async canUserSeePage(pageId: string, userId: string): Promise<boolean> {
    const [page, user] = await Promise.all([
      this.pages.findOneBy({ id: pageId }),
      this.users.findActiveById(userId),
    ]);
    if (!page || !user) return false;
    return this.access.canSee(page, {
      role: user.role,
      groups: (user.groups ?? []).map((g) => g.name),
    });
  }

  private async visibleRow(slug: string, user: AuthUser): Promise<PageRow> {
    const row = await findLivePageRow(this.dataSource, normaliseSlug(slug));
    if (!row || !this.access.canSee(row.page, user)) throw new NotFoundProblem('page');
    return row;
  }

  private async respond(row: PageRow, user: AuthUser): Promise<PageRead> {
    const [html, backlinks] = await Promise.all([
      this.htmlOf(row),
      this.browse.backlinks(row.page.id, row.page.slug, user),
    ]);
    return { etag: etagOf(row.page.revision), body: toPageResponse(row, html, backlinks) };
  }

  /**
   * The stored HTML while it was rendered at the current site-variables version; otherwise
   * render once and store it for the next reader (guarded by the revision, so an edit wins).
   */
  private async htmlOf(row: PageRow): Promise<string> {
    const page = row.page;
    const version = row.siteVersion ?? 0;
    if (page.html !== null && page.htmlSiteVersion === version) return page.html;
    const site = await this.siteVariables.get(undefined, version);
    const html = this.renderer.render(page.content, mergeVariables(site.values, page.variables), {
      baseSlug: page.slug,
    });
    await this.pages
      .createQueryBuilder()
      .update(PageEntity)
      .set({ html, htmlSiteVersion: version })
      .where('id = :id AND revision = :revision', { id: page.id, revision: page.revision })
      .execute();
    return html;
  }
}
