import { Injectable } from '@nestjs/common';
import { AuthUser } from '../common/auth/auth-user';
import type { Tx } from '../common/database/database';
import { Created, locationOf } from '../common/http/created';
import { NotFoundProblem } from '../common/problems/problem';
import { PageAccessService } from './page-access.service';
import { PageBinService } from './page-bin.service';
import { PageWriterService, Precondition } from './page-writer.service';
import { CreatePageDto, UpdatePageDto } from './dto/page.dto';
import { PageResponse } from './pages.mapper';
import {
  conditional,
  ConditionalRead,
  etagOf,
  PageRead,
  PageReadPath,
} from './read-path/page-read-path';
import { normaliseSlug } from './model/slug';
import type { PageRecord } from './model/page-columns';
import type { PageRow } from './store/page-rows';
import { PagesRepository } from './store/pages.repository';
import { PageTemplatesService } from './templates/page-templates.service';
import type { Viewer } from './store/visibility-sql';

/** A read of an old slug of a moved page the caller may see: answered 308 to `movedTo`. */
export interface PageMoved {
  movedTo: string;
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
    private readonly writer: PageWriterService,
    private readonly bin: PageBinService,
    private readonly readPath: PageReadPath,
    private readonly templates: PageTemplatesService,
  ) {}

  /** CONTRACTS: the live page if `user` may see it, else 404 `page_not_found`. */
  async getVisible(slug: string, user: AuthUser): Promise<PageRecord> {
    return (await this.visibleRow(slug, user)).page;
  }

  /**
   * The JSON bytes of a visible page with HTML and backlinks; only the ETag when `ifNoneMatch`
   * names it (304); where it moved to for an old slug. The bytes come from the read path
   * (PageReadPath), which keeps the caches.
   */
  async read(
    slug: string,
    user: AuthUser,
    ifNoneMatch?: string,
  ): Promise<ConditionalRead<Buffer> | PageMoved> {
    const key = normaliseSlug(slug);
    return (await this.readPath.read(key, user, ifNoneMatch)) ?? this.movedFrom(key, user);
  }

  /** Response for a page just written by `user` (create, update, restore). */
  async readById(pageId: string, user: AuthUser): Promise<PageRead> {
    const row = await this.pages.findRowById(pageId);
    if (!row || !this.access.canSee(row.page, user)) throw new NotFoundProblem('page');
    return this.readPath.answer(row, user);
  }

  /** POST /api/pages: writes the page and answers it as read back, with Location and ETag. */
  async create(body: CreatePageDto, user: AuthUser): Promise<Created<PageResponse>> {
    const page = await this.templates.apply(body, user);
    const read = await this.readById((await this.writer.create(page, user)).id, user);
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
}
