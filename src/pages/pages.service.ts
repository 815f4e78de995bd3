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
import { CallerParts, PageResponseCache } from './page-response-cache';
import { linksPages, markMissingLinks } from './rendering/missing-links';
import { ImportedPage, ImportOutcome, MediaReferences, ReviewDuePage } from './model/page-shapes';
import { RenderPool } from './rendering/render-pool';
import { SiteVariablesService } from './site-variables.service';
import { isValidSlug, normaliseSlug } from './model/slug';
import type { PageArchiveRecord, PageRecord } from './model/page-columns';
import type { PageRow } from './store/page-rows';
import { PagesRepository } from './store/pages.repository';
import type { Viewer } from './store/visibility-sql';
import { mergeVariables, referencedVariableNames } from './model/variables';

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

  /**
   * CONTRACTS: a live editing session's shared text written as a revision of the page at
   * `baseRevision` by `user` with `coAuthors` (usernames), through the same use case as a PUT
   * (events, links, search, outbox); the new revision, or `baseRevision` when the text is
   * already the page's. A stale base answers 409 `revision_conflict`. `written` runs in the
   * revision's transaction (collab marks the revision as the session's own).
   */
  async writeSessionText(
    pageId: string,
    content: string,
    user: AuthUser,
    baseRevision: number,
    coAuthors: string[],
    written?: (tx: Tx, revision: number) => Promise<void>,
  ): Promise<number> {
    const page = await this.pages.findById(pageId);
    if (!page || page.liveSlug === null) throw new NotFoundProblem('page');
    await this.writer.update(
      page.liveSlug,
      { content },
      user,
      { baseRevision },
      { coAuthors, written },
    );
    return (await this.pages.findById(pageId))?.revision ?? baseRevision;
  }

  /**
   * CONTRACTS: co-authors (usernames) of a revision that carries none yet: the editor's Save
   * wrote a live session's text through PUT, and the session knows who typed (collab).
   */
  setCoAuthors(pageId: string, revision: number, coAuthors: string[]): Promise<void> {
    return this.pages.setCoAuthors(pageId, revision, coAuthors);
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

  /**
   * CONTRACTS: a visible live page's title and Markdown at revision `revision` (a change
   * request's base), or null when it has no such revision.
   */
  async revisionText(
    page: Pick<PageRecord, 'id'>,
    revision: number,
  ): Promise<{ title: string; content: string } | null> {
    return this.pages.revisionText(page.id, revision);
  }

  /** CONTRACTS: the live page at `slug` if `user` may see it, else null (never throws). */
  async findVisible(slug: string, user: AuthUser): Promise<PageRecord | null> {
    const page = await this.pages.findLive(normaliseSlug(slug));
    return page && this.access.canSee(page, user) ? page : null;
  }

  /** CONTRACTS: see PageWriterService.upsertImported. */
  upsertImported(tx: Tx, doc: ImportedPage, actor: AuthUser): Promise<ImportOutcome> {
    return this.writer.upsertImported(tx, doc, actor);
  }

  /** CONTRACTS: see PageWriterService.predictImported (the dry run's comparison). */
  predictImported(doc: ImportedPage, actor: AuthUser): Promise<ImportOutcome> {
    return this.writer.predictImported(doc, actor);
  }

  /** CONTRACTS: live pages with these slugs (normalised), for import link rewriting; in `tx` if given. */
  findLiveBySlugs(slugs: string[], tx?: Tx): Promise<PageRecord[]> {
    return this.pages.findLiveBySlugs([...new Set(slugs.map(normaliseSlug))], tx);
  }

  /** CONTRACTS: live pages strictly under `prefix` (mode=mirror imports). */
  findLiveUnder(prefix: string): Promise<PageRecord[]> {
    return this.pages.findLiveUnder(normaliseSlug(prefix));
  }

  /** CONTRACTS: see PageBinService.binWithin (mode=mirror imports). */
  binWithin(tx: Tx, page: PageRecord, actor: AuthUser): Promise<void> {
    return this.bin.binWithin(tx, page, actor);
  }

  /**
   * CONTRACTS: restores an archive's redirects inside the caller's transaction (an import):
   * each old slug that no live page uses is pointed at the live page at `to`; the others, and
   * invalid slugs, are left out. Answers how many were restored.
   */
  async restoreRedirectsWithin(
    tx: Tx,
    redirects: { from: string; to: string }[],
    actor: AuthUser,
  ): Promise<number> {
    const pairs = redirects
      .map((r) => ({ from: normaliseSlug(r.from), to: normaliseSlug(r.to) }))
      .filter((r) => r.from !== r.to && isValidSlug(r.from) && isValidSlug(r.to));
    const targets = new Map(
      (await this.pages.findLiveBySlugs([...new Set(pairs.map((r) => r.to))], tx)).map((p) => [
        p.slug,
        p.id,
      ]),
    );
    const taken = await this.pages.liveSlugsAmong(
      pairs.map((r) => r.from),
      tx,
    );
    const now = new Date();
    const rows = pairs.flatMap((r) => {
      const pageId = targets.get(r.to);
      return pageId && !taken.has(r.from)
        ? [{ fromSlug: r.from, pageId, createdAt: now, createdBy: actor.id }]
        : [];
    });
    await this.pages.putRedirects([...new Map(rows.map((r) => [r.fromSlug, r])).values()], tx);
    return rows.length;
  }

  /** CONTRACTS: redirects to the live pages among `slugs`, `{from, to}` by old slug (archives). */
  redirectsTo(slugs: string[]): Promise<{ from: string; to: string }[]> {
    return this.pages.redirectsToSlugs(slugs);
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
