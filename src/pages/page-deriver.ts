import { Injectable } from '@nestjs/common';
import type { Tx } from '../common/database/database';
import type { Derived, PageState } from './model/page-state';
import { SiteVariablesService } from './site-variables.service';
import { mergeVariables } from './model/variables';
import { findUsedMediaIds } from '../common/text/media-urls';
import { MarkdownRenderer } from './rendering/markdown-renderer';
import { RenderPool } from './rendering/render-pool';

/**
 * What a write stores beside a page's state: the HTML rendered with the site-wide variables
 * (so reads render nothing), the internal link targets and the stored media it references.
 * Rendering is pure CPU work (markdown-it + sanitize-html), done before the transaction, in
 * the render pool's worker threads.
 */
@Injectable()
export class PageDeriver {
  constructor(
    private readonly renderer: MarkdownRenderer,
    private readonly renders: RenderPool,
    private readonly siteVariables: SiteVariablesService,
  ) {}

  /** `siteVersion`: the site-variables version when the caller already read it (with the page row). */
  async derive(state: PageState, tx?: Tx, siteVersion?: number): Promise<Derived> {
    const site = await this.siteVariables.get(tx, siteVersion);
    const rendered = await this.renders.renderPage(
      state.content,
      mergeVariables(site.values, state.variables),
      state.slug,
    );
    return {
      html: rendered.html,
      htmlSiteVersion: site.version,
      links: rendered.links.filter((slug) => slug !== state.slug),
      mediaIds: findUsedMediaIds(state.content),
    };
  }

  /**
   * Links and media without rendering (imports): the HTML is left to the first read, which
   * renders it once and stores it, so later reads render nothing either.
   */
  deriveWithoutHtml(state: PageState): Derived {
    return {
      html: null,
      htmlSiteVersion: 0,
      links: this.renderer.extractLinks(state.content, state.slug).filter((s) => s !== state.slug),
      mediaIds: findUsedMediaIds(state.content),
    };
  }
}
