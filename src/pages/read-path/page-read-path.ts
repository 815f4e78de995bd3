import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/auth-user';
import { etagMatches } from '../../common/http/etag';
import { visibleDeprecatedTarget } from '../deprecated-target';
import type { PageRecord } from '../model/page-columns';
import { mergeVariables } from '../model/variables';
import { PageAccessService } from '../page-access.service';
import { PageBrowseService } from '../page-browse.service';
import { PageResponse, toPageResponse } from '../pages.mapper';
import { linksPages, markMissingLinks } from '../rendering/missing-links';
import { RenderPool } from '../rendering/render-pool';
import { SiteVariablesService } from '../site-variables.service';
import type { PageRow } from '../store/page-rows';
import { PagesRepository } from '../store/pages.repository';
import { CallerParts, PageResponseCache } from './page-response-cache';

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

export async function conditional<T>(
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
 * The hot read path of a page (`GET /api/pages/{slug}`) and its caches, in one place: the
 * serialised response kept by page state (PageResponseCache), the stored HTML rendered again
 * only when the site variables moved on (and written back for the next reader, guarded by the
 * revision), and the per-caller members (backlinks, deprecated target, missing links) filled in
 * on each read. PagesService asks it for a page's bytes and does nothing else on a read.
 */
@Injectable()
export class PageReadPath {
  constructor(
    private readonly pages: PagesRepository,
    private readonly access: PageAccessService,
    private readonly browse: PageBrowseService,
    private readonly renders: RenderPool,
    private readonly siteVariables: SiteVariablesService,
    private readonly responses: PageResponseCache,
  ) {}

  /**
   * The JSON bytes of a visible page with HTML and backlinks; only the ETag when `ifNoneMatch`
   * names it (304). The page's serialised response is kept by state (PageResponseCache): a read
   * of a cached page reads its head row (no Markdown or HTML) and the caller's members only; a
   * read of a page the cache holds nothing for (or a conditional one) reads the whole row once.
   */
  async read(
    key: string,
    user: AuthUser,
    ifNoneMatch?: string,
  ): Promise<ConditionalRead<Buffer> | null> {
    if (ifNoneMatch !== undefined || this.responses.holds(key)) {
      const head = await this.pages.findLiveHead(key);
      if (!head || !this.access.canSee(head.page, user)) return null;
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
    if (!row || !this.access.canSee(row.page, user)) return null;
    return conditional(etagOf(row.page.revision), ifNoneMatch, async () => {
      const html = await this.htmlOf(row);
      const parts = await this.callerParts(row.page, user, linksPages(html));
      const body = toPageResponse(row, html, parts.backlinks);
      const frame = this.responses.put(row.page.id, PageResponseCache.versionOf(row), body);
      return frame.render(parts);
    });
  }

  /** A page read answered whole for `row` (the answer to a write): HTML rendered when stale. */
  async answer(row: PageRow, user: AuthUser): Promise<PageRead> {
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
