import { Injectable } from '@nestjs/common';
import { AuthUser } from '../common/auth/auth-user';
import type { Tx } from '../common/database/database';
import { etagMatches } from '../common/http/etag';
import { NotFoundProblem } from '../common/problems/problem';
import { PageAccessService } from './page-access.service';
import { PageBinService } from './page-bin.service';
import { PageBrowseService } from './page-browse.service';
import { PageWriterService } from './page-writer.service';
import { visibleDeprecatedTarget } from './deprecated-target';
import { PageResponse, toPageResponse } from './pages.mapper';
import { ImportedPage, ImportOutcome, MediaReferences, ReviewDuePage } from './pages.types';
import { MarkdownRenderer } from './rendering/markdown-renderer';
import { SiteVariablesService } from './site-variables.service';
import { normaliseSlug } from './slug';
import type { PageArchiveRecord, PageRecord } from './store/page-columns';
import type { PageRow } from './store/page-rows';
import { PagesRepository } from './store/pages.repository';
import type { Viewer } from './store/visibility-sql';
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
 * Page reads and the services other features call (docs/CONTRACTS.md): other modules reach pages
 * data through these methods only. Writes live in PageWriterService, lists in
 * PageBrowseService; visibility in PageAccessService; SQL in store/.
 */
@Injectable()
export class PagesService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly access: PageAccessService,
    private readonly browse: PageBrowseService,
    private readonly writer: PageWriterService,
    private readonly renderer: MarkdownRenderer,
    private readonly siteVariables: SiteVariablesService,
    private readonly bin: PageBinService,
  ) {}

  /** CONTRACTS: the live page if `user` may see it, else 404 `page_not_found`. */
  async getVisible(slug: string, user: AuthUser): Promise<PageRecord> {
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
    const row = await this.pages.findRowById(pageId);
    if (!row || !this.access.canSee(row.page, user)) throw new NotFoundProblem('page');
    return this.respond(row, user);
  }

  async raw(slug: string, user: AuthUser): Promise<{ etag: string; markdown: string }> {
    const page = await this.getVisible(slug, user);
    return { etag: etagOf(page.revision), markdown: page.content };
  }

  /** CONTRACTS: saved values, site-wide overridden by the page's own. */
  async resolveVariables(page: Pick<PageRecord, 'variables'>): Promise<Record<string, string>> {
    const site = await this.siteVariables.get();
    return mergeVariables(site.values, page.variables);
  }

  /** CONTRACTS: names defined for the page or site-wide AND referenced by its content. */
  async usableVariableNames(page: Pick<PageRecord, 'variables' | 'content'>): Promise<string[]> {
    const defined = await this.resolveVariables(page);
    return referencedVariableNames(page.content).filter((name) =>
      Object.prototype.hasOwnProperty.call(defined, name),
    );
  }

  /** CONTRACTS: see PageWriterService.upsertImported. */
  upsertImported(tx: Tx, doc: ImportedPage, actor: AuthUser): Promise<ImportOutcome> {
    return this.writer.upsertImported(tx, doc, actor);
  }

  /** CONTRACTS: see PageWriterService.predictImported (the dry run's comparison). */
  predictImported(doc: ImportedPage, actor: AuthUser): Promise<ImportOutcome> {
    return this.writer.predictImported(doc, actor);
  }

  /** CONTRACTS: live pages with these slugs (normalised), for import link rewriting. */
  findLiveBySlugs(slugs: string[]): Promise<PageRecord[]> {
    return this.pages.findLiveBySlugs([...new Set(slugs.map(normaliseSlug))]);
  }

  /** CONTRACTS: live pages strictly under `prefix` (mode=mirror imports). */
  findLiveUnder(prefix: string): Promise<PageRecord[]> {
    return this.pages.findLiveUnder(normaliseSlug(prefix));
  }

  /** CONTRACTS: see PageBinService.binWithin (mode=mirror imports). */
  binWithin(tx: Tx, page: PageRecord, actor: AuthUser): Promise<void> {
    return this.bin.binWithin(tx, page, actor);
  }

  /** CONTRACTS: see PageBinService.announceBinned; call after the commit. */
  announceBinned(pages: PageRecord[], actor: AuthUser): void {
    this.bin.announceBinned(pages, actor);
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
  listReviewDue(
    now: Date,
    limit: number,
    after?: Pick<ReviewDuePage, 'id' | 'nextReviewAt'>,
  ): Promise<ReviewDuePage[]> {
    return this.pages.listReviewDue(now, limit, after);
  }

  /**
   * CONTRACTS: whether `viewer` would see a stored page (live or in the bin) if it were live, by the same
   * rule as every read; false for a purged page.
   */
  async wouldSee(pageId: string, viewer: Viewer): Promise<boolean> {
    const page = await this.pages.findById(pageId);
    return page !== null && this.access.canSee({ ...page, liveSlug: page.slug }, viewer);
  }

  /** The slugs among `slugs` that are live pages `user` may see (archive selections). */
  visibleLiveSlugs(user: AuthUser, slugs: string[]): Promise<string[]> {
    return this.pages.visibleLiveSlugs(user, slugs);
  }

  /**
   * One batch of pages for an archive: live pages `user` may see, by slug after `afterSlug`
   * (only `slugs` when given), with their owners' usernames; never the rendered HTML.
   */
  archiveBatch(
    user: AuthUser,
    slugs: string[] | undefined,
    afterSlug: string | null,
    limit: number,
  ): Promise<{ page: PageArchiveRecord; owner: string | null }[]> {
    return this.pages.archiveBatch(user, slugs, afterSlug, limit);
  }

  private async visibleRow(slug: string, user: AuthUser): Promise<PageRow> {
    const row = await this.pages.findLiveRow(normaliseSlug(slug));
    if (!row || !this.access.canSee(row.page, user)) throw new NotFoundProblem('page');
    return row;
  }

  private async respond(row: PageRow, user: AuthUser): Promise<PageRead> {
    const [html, backlinks, deprecatedTarget] = await Promise.all([
      this.htmlOf(row),
      this.browse.backlinks(row.page.id, row.page.slug, user),
      visibleDeprecatedTarget(this.pages, row.page.deprecatedTarget, user),
    ]);
    const body = toPageResponse(row, html, backlinks);
    return { etag: etagOf(row.page.revision), body: { ...body, deprecatedTarget } };
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
    await this.pages.storeHtml(page.id, page.revision, html, version);
    return html;
  }
}
