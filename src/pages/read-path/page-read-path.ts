import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/auth-user';
import { etagMatches } from '../../common/http/etag';
import { visibleDeprecatedTarget } from '../deprecated-target';
import type { PageRecord } from '../model/page-columns';
import { PageAccessService } from '../page-access.service';
import { PageBrowseService } from '../page-browse.service';
import { PageHtmlService } from '../page-html.service';
import { PageResponse, toPageResponse } from '../pages.mapper';
import { holdsIncludes } from '../rendering/includes';
import { linksPages, markMissingLinks } from '../rendering/missing-links';
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
 * the client's copy is current (304). The Markdown (`/raw`) is answered through `conditional`;
 * the JSON read compares in `PageReadPath.read`, since a page that includes others is never a
 * 304 (an included page may have changed while its revision did not).
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
 * only when the site variables moved on (PageHtmlService, which writes it back for the next
 * reader), and the per-caller members (backlinks, deprecated target, missing links, includes
 * filled for the reader) filled in on each read. PagesService asks it for a page's bytes and does nothing else on a read.
 */
@Injectable()
export class PageReadPath {
  constructor(
    private readonly pages: PagesRepository,
    private readonly access: PageAccessService,
    private readonly browse: PageBrowseService,
    private readonly pageHtml: PageHtmlService,
    private readonly responses: PageResponseCache,
  ) {}

  /**
   * The JSON bytes of a visible page with HTML and backlinks; only the ETag when `ifNoneMatch`
   * names it (304) and the page includes no other page. The page's serialised response is kept by state (PageResponseCache): a read
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
      const frame = this.responses.get(head.page.id, PageResponseCache.versionOf(head));
      // A page with includes changes when an included page does: its revision alone does not
      // say the client's copy is current, so it is always answered whole.
      if (frame) {
        if (etagMatches(ifNoneMatch, etag) && frame.includes === null)
          return { etag, notModified: true };
        return { etag, body: frame.render(await this.callerParts(head.page, user, frame)) };
      }
      // Not cached in this state: the whole row, read again (the page may have moved on since).
    }
    const row = await this.pages.findLiveRow(key);
    if (!row || !this.access.canSee(row.page, user)) return null;
    const etag = etagOf(row.page.revision);
    const html = await this.pageHtml.stored(row);
    const version = PageResponseCache.versionOf(row);
    const frame = this.responses.put(row.page.id, version, toPageResponse(row, html, []));
    // Kept (its caller members are filled per read), so the next 304 reads the head row only.
    if (etagMatches(ifNoneMatch, etag) && !holdsIncludes(html)) return { etag, notModified: true };
    return { etag, body: frame.render(await this.callerParts(row.page, user, frame)) };
  }

  /** A page read answered whole for `row` (the answer to a write): HTML rendered when stale. */
  async answer(row: PageRow, user: AuthUser): Promise<PageRead> {
    const stored = await this.pageHtml.stored(row);
    const html = await this.pageHtml.forReader(stored, user, row.page.slug);
    const parts = await this.callerParts(row.page, user, {
      linksPages: linksPages(html),
      includes: null,
    });
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
    html: { linksPages: boolean; includes: string | null },
  ): Promise<CallerParts> {
    const [backlinks, deprecatedTarget, missing, filled] = await Promise.all([
      this.browse.backlinks(page.id, page.slug, user),
      visibleDeprecatedTarget(this.pages, page.deprecatedTarget, user),
      html.linksPages ? this.pages.missingLinkTargets(page.id, user) : [],
      html.includes === null ? undefined : this.pageHtml.forReader(html.includes, user, page.slug),
    ]);
    return { backlinks, deprecatedTarget, missing: new Set(missing), html: filled };
  }
}
