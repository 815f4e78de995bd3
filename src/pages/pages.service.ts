import { Injectable } from '@nestjs/common';
import { AuthUser } from '../common/auth/auth-user';
import type { Tx } from '../common/database/database';
import { Created, locationOf } from '../common/http/created';
import { etagMatches } from '../common/http/etag';
import { NotFoundProblem } from '../common/problems/problem';
import { PageAccessService } from './page-access.service';
import { PageBinService } from './page-bin.service';
import { PageBrowseService } from './page-browse.service';
import { PageWriterService, Precondition } from './page-writer.service';
import { CreatePageDto, UpdatePageDto } from './dto/page.dto';
import { visibleDeprecatedTarget } from './deprecated-target';
import { PageResponse, toPageResponse } from './pages.mapper';
import { CallerParts, PageResponseCache } from './read-path/page-response-cache';
import { linksPages, markMissingLinks } from './rendering/missing-links';
import { RenderPool } from './rendering/render-pool';
import { SiteVariablesService } from './site-variables.service';
import { normaliseSlug } from './model/slug';
import type { PageRecord } from './model/page-columns';
import type { PageRow } from './store/page-rows';
import { PagesRepository } from './store/pages.repository';
import type { Viewer } from './store/visibility-sql';
import { mergeVariables } from './model/variables';

/** A page read: the response and its ETag. */
export interface PageRead {
  etag: string;
  body: PageResponse;
}

/**
 * A conditional read (If-None-Match): the representation with its ETag, or only the ETag when
 * the client's copy is current (304). Both page representations (JSON and `/raw` Markdown) are
 * answered through `conditional`, the one place their ETags are compared.
 */
export type ConditionalRead<T> = { etag: string; body: T } | { etag: string; notModified: true };

/** A read of an old slug of a moved page the caller may see: answered 308 to `movedTo`. */
export interface PageMoved {
  movedTo: string;
}

async function conditional<T>(
  etag: string,
  ifNoneMatch: string | undefined,
  body: () => T | Promise<T>,
): Promise<ConditionalRead<T>> {
  if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };
  return { etag, body: await body() };
}

export function etagOf(revision: number): string {
  return `"${revision}"`;
}

/**
 * The page read use case: a page as the API answers it (JSON or Markdown, conditional, with
 * the caller's backlinks and missing links), the answer to a write, and the single-page
 * lookups other modules make (docs/CONTRACTS.md). Other use cases have their own service, which
 * other modules call directly: writes and imports PageWriterService, the bin PageBinService,
 * lists PageBrowseService, revisions PageRevisionsService, redirects PageRedirectsService,
 * variables SiteVariablesService; visibility PageAccessService; SQL in store/.
 */
@Injectable()
export class PagesService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly access: PageAccessService,
    private readonly browse: PageBrowseService,
    private readonly writer: PageWriterService,
    private readonly renders: RenderPool,
    private readonly siteVariables: SiteVariablesService,
    private readonly bin: PageBinService,
    private readonly responses: PageResponseCache,
  ) {}

  /** CONTRACTS: the live page if `user` may see it, else 404 `page_not_found`. */
  async getVisible(slug: string, user: AuthUser): Promise<PageRecord> {
    return (await this.visibleRow(slug, user)).page;
  }

  /**
   * The JSON bytes of a visible page with HTML and backlinks; only the ETag when `ifNoneMatch`
   * names it (304). The page's serialised response is kept by state (PageResponseCache): a read
   * of a cached page reads its head row (no Markdown or HTML) and the caller's members only; a
   * read of a page the cache holds nothing for (or a conditional one) reads the whole row once.
   */
  async read(
    slug: string,
    user: AuthUser,
    ifNoneMatch?: string,
  ): Promise<ConditionalRead<Buffer> | PageMoved> {
    const key = normaliseSlug(slug);
    if (ifNoneMatch !== undefined || this.responses.holds(key)) {
      const head = await this.pages.findLiveHead(key);
      if (!head || !this.access.canSee(head.page, user)) return this.movedFrom(key, user);
      const etag = etagOf(head.page.revision);
      if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };
      const frame = this.responses.get(head.page.id, PageResponseCache.versionOf(head));
      if (frame)
        return {
          etag,
          body: frame.render(await this.callerParts(head.page, user, frame.linksPages)),
        };
      // Not cached in this state: the whole row, read again (the page may have moved on since).
    }
    const row = await this.pages.findLiveRow(key);
    if (!row || !this.access.canSee(row.page, user)) return this.movedFrom(key, user);
    return conditional(etagOf(row.page.revision), ifNoneMatch, async () => {
      const html = await this.htmlOf(row);
      const parts = await this.callerParts(row.page, user, linksPages(html));
      const body = toPageResponse(row, html, parts.backlinks);
      const frame = this.responses.put(row.page.id, PageResponseCache.versionOf(row), body);
      return frame.render(parts);
    });
  }

  /** Response for a page just written by `user` (create, update, restore). */
  async readById(pageId: string, user: AuthUser): Promise<PageRead> {
    const row = await this.pages.findRowById(pageId);
    if (!row || !this.access.canSee(row.page, user)) throw new NotFoundProblem('page');
    return this.respond(row, user);
  }

  /** POST /api/pages: writes the page and answers it as read back, with Location and ETag. */
  async create(body: CreatePageDto, user: AuthUser): Promise<Created<PageResponse>> {
    const read = await this.readById((await this.writer.create(body, user)).id, user);
    return new Created(read.body, locationOf('pages', read.body.slug), { ETag: read.etag });
  }

  /** PUT /api/pages/{slug}: the page as updated, with its new ETag. */
  async update(
    slug: string,
    body: UpdatePageDto,
    user: AuthUser,
    precondition: Precondition,
  ): Promise<PageRead> {
    return this.readById(await this.writer.update(slug, body, user, precondition), user);
  }

  /** CONTRACTS: the page with id `pageId`, live or binned, whoever asks (collab's watch). */
  pageById(pageId: string): Promise<PageRecord | null> {
    return this.pages.findById(pageId);
  }

  /** CONTRACTS: the live page with id `pageId` if `user` may see it, else null (collab). */
  async visibleById(pageId: string, user: AuthUser): Promise<PageRecord | null> {
    const page = await this.pages.findById(pageId);
    return page && this.access.canSee(page, user) ? page : null;
  }

  /** The page as a revision restored it (a new revision). */
  async restoreRevision(
    revisionId: string,
    user: AuthUser,
    precondition: Precondition,
  ): Promise<PageResponse> {
    const pageId = await this.writer.restoreRevision(revisionId, user, precondition);
    return (await this.readById(pageId, user)).body;
  }

  /** The page as restored from the bin, under its slug or `newSlug`. */
  async restoreFromBin(id: string, user: AuthUser, newSlug?: string): Promise<PageResponse> {
    return (await this.readById((await this.bin.restore(id, user, newSlug)).id, user)).body;
  }

  /** A visible page's Markdown as stored; only the ETag when `ifNoneMatch` names it (304). */
  async raw(
    slug: string,
    user: AuthUser,
    ifNoneMatch?: string,
  ): Promise<ConditionalRead<string> | PageMoved> {
    const key = normaliseSlug(slug);
    const page = await this.pages.findLive(key);
    if (!page || !this.access.canSee(page, user)) return this.movedFrom(key, user);
    return conditional(etagOf(page.revision), ifNoneMatch, () => page.content);
  }

  /**
   * No live page the caller may see at `slug`: where it moved to when it is the old slug of a
   * page they may see, else 404 exactly as for a missing page.
   */
  private async movedFrom(slug: string, user: AuthUser): Promise<PageMoved> {
    const target = await this.pages.findRedirectTarget(slug);
    if (!target || !this.access.canSee(target, user)) throw new NotFoundProblem('page');
    return { movedTo: target.slug };
  }

  /** CONTRACTS: the live page at `slug` if `user` may see it, else null (never throws). */
  async findVisible(slug: string, user: AuthUser): Promise<PageRecord | null> {
    const page = await this.pages.findLive(normaliseSlug(slug));
    return page && this.access.canSee(page, user) ? page : null;
  }

  /** CONTRACTS: live pages with these slugs (normalised), for import link rewriting; in `tx` if given. */
  findLiveBySlugs(slugs: string[], tx?: Tx): Promise<PageRecord[]> {
    return this.pages.findLiveBySlugs([...new Set(slugs.map(normaliseSlug))], tx);
  }

  /** CONTRACTS: live pages strictly under `prefix` (mode=mirror imports). */
  findLiveUnder(prefix: string): Promise<PageRecord[]> {
    return this.pages.findLiveUnder(normaliseSlug(prefix));
  }

  /**
   * CONTRACTS: whether `viewer` would see a stored page (live or in the bin) if it were live, by the same
   * rule as every read; false for a purged page.
   */
  async wouldSee(pageId: string, viewer: Viewer): Promise<boolean> {
    const page = await this.pages.findById(pageId);
    return page !== null && this.access.canSee({ ...page, liveSlug: page.slug }, viewer);
  }

  /** CONTRACTS: the live page with this id, or null; callers decide visibility (PageAccessService). */
  async findLiveById(pageId: string): Promise<PageRecord | null> {
    const page = await this.pages.findById(pageId);
    return page && page.liveSlug !== null ? page : null;
  }

  /**
   * CONTRACTS: whether `viewer` may see a live page at `slug` or, with `subtree`, at it or
   * anywhere under it (watches: anyone who can read a page may watch it or its folder).
   */
  visibleAt(slug: string, viewer: Viewer, subtree: boolean): Promise<boolean> {
    return this.pages.visibleAt(normaliseSlug(slug), viewer, subtree);
  }

  private async visibleRow(slug: string, user: AuthUser): Promise<PageRow> {
    const row = await this.pages.findLiveRow(normaliseSlug(slug));
    if (!row || !this.access.canSee(row.page, user)) throw new NotFoundProblem('page');
    return row;
  }

  private async respond(row: PageRow, user: AuthUser): Promise<PageRead> {
    const html = await this.htmlOf(row);
    const parts = await this.callerParts(row.page, user, linksPages(html));
    const body = toPageResponse(row, markMissingLinks(html, parts.missing), parts.backlinks);
    return {
      etag: etagOf(row.page.revision),
      body: { ...body, deprecatedTarget: parts.deprecatedTarget },
    };
  }

  /**
   * What a page read shows depending on who reads: visible backlinks and deprecated target,
   * and the link targets to mark `kb-missing` (no live page the reader may see: missing and
   * invisible look the same). The stored HTML is shared by all readers, so links are marked
   * per read from the page's link list (one indexed statement, skipped for HTML without links).
   */
  private async callerParts(
    page: Pick<PageRecord, 'id' | 'slug' | 'deprecatedTarget'>,
    user: AuthUser,
    linksPages: boolean,
  ): Promise<CallerParts> {
    const [backlinks, deprecatedTarget, missing] = await Promise.all([
      this.browse.backlinks(page.id, page.slug, user),
      visibleDeprecatedTarget(this.pages, page.deprecatedTarget, user),
      linksPages ? this.pages.missingLinkTargets(page.id, user) : [],
    ]);
    return { backlinks, deprecatedTarget, missing: new Set(missing) };
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
    const { html } = await this.renders.renderPage(
      page.content,
      mergeVariables(site.values, page.variables),
      page.slug,
    );
    await this.pages.storeHtml(page.id, page.revision, html, version);
    return html;
  }
}
