import { Injectable } from '@nestjs/common';
import { PageAccessService } from './page-access.service';
import {
  excerptOf,
  fillIncludes,
  holdsIncludes,
  includedHtml,
  includeKeys,
  includeNote,
  MAX_INCLUDE_DEPTH,
  parseIncludeKey,
} from './rendering/includes';
import { RenderPool } from './rendering/render-pool';
import { SiteVariablesService } from './site-variables.service';
import type { PageRow } from './store/page-rows';
import { PagesRepository } from './store/pages.repository';
import type { Viewer } from './store/visibility-sql';
import { mergeVariables } from './model/variables';

/**
 * A page's HTML as a reader gets it: the HTML stored at write (rendered again once when the
 * site-wide variables changed, or when an import stored none), with its includes filled for
 * that reader. Includes are filled at read from the included pages' own stored HTML, so a
 * reader sees only pages they may see (a missing page, a page they may not see and a missing
 * excerpt show the same neutral note), an edit of an included page shows at the next read of
 * every page including it, and a page without includes costs nothing more (one `includes`
 * test on its HTML).
 */
@Injectable()
export class PageHtmlService {
  constructor(
    private readonly pages: PagesRepository,
    private readonly access: PageAccessService,
    private readonly renders: RenderPool,
    private readonly siteVariables: SiteVariablesService,
  ) {}

  /**
   * The stored HTML while it was rendered at the current site-variables version; otherwise
   * render once and store it for the next reader (guarded by the revision, so an edit wins).
   */
  async stored(row: PageRow): Promise<string> {
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

  /**
   * `html` (of the page at `slug`, or of unsaved Markdown with `slug` null) with its includes
   * filled for `viewer`: at most MAX_INCLUDE_DEPTH levels, a page never inside itself.
   */
  forReader(html: string, viewer: Viewer, slug: string | null): Promise<string> {
    if (!holdsIncludes(html)) return Promise.resolve(html);
    return this.fill(html, viewer, slug === null ? [] : [slug], 1, new Map());
  }

  private async fill(
    html: string,
    viewer: Viewer,
    chain: string[],
    level: number,
    rows: Map<string, Promise<PageRow | null>>,
  ): Promise<string> {
    const fills = new Map<string, string>();
    await Promise.all(
      includeKeys(html).map(async (key) => {
        fills.set(key, await this.included(key, viewer, chain, level, rows));
      }),
    );
    return fillIncludes(html, (key) => fills.get(key) ?? includeNote(key, 'unavailable'));
  }

  private async included(
    key: string,
    viewer: Viewer,
    chain: string[],
    level: number,
    rows: Map<string, Promise<PageRow | null>>,
  ): Promise<string> {
    const target = parseIncludeKey(key);
    if (chain.includes(target.slug)) return includeNote(key, 'cycle');
    if (level > MAX_INCLUDE_DEPTH) return includeNote(key, 'depth');
    let read = rows.get(target.slug);
    if (!read) rows.set(target.slug, (read = this.pages.findLiveRow(target.slug)));
    const row = await read;
    if (!row || !this.access.canSee(row.page, viewer)) return includeNote(key, 'unavailable');
    const whole = await this.stored(row);
    const part = target.excerpt === null ? whole : excerptOf(whole, target.excerpt);
    if (part === null) return includeNote(key, 'unavailable');
    const inner = holdsIncludes(part)
      ? await this.fill(part, viewer, [...chain, target.slug], level + 1, rows)
      : part;
    return includedHtml(key, inner);
  }
}
