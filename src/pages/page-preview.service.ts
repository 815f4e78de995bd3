import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import { FieldProblems } from '../common/problems/problem';
import { PreviewDto } from './dto/page.dto';
import { RenderPool } from './rendering/render-pool';
import { PageHtmlService } from './page-html.service';
import { PageInputService } from './page-input.service';
import { SiteVariablesService } from './site-variables.service';
import { isValidSlug, normaliseSlugField } from './model/slug';
import { mergeVariables, variableProblems } from './model/variables';

/**
 * Renders unsaved Markdown exactly as a page read would (site-wide variables, overridden by
 * the request's), without storing anything. Links are resolved to slugs only, never looked
 * up, so a preview reveals nothing about pages the caller cannot see.
 */
@Injectable()
export class PagePreviewService {
  constructor(
    private readonly renders: RenderPool,
    private readonly siteVariables: SiteVariablesService,
    private readonly input: PageInputService,
    private readonly pageHtml: PageHtmlService,
  ) {}

  /** Includes are filled for the caller, as a read of the saved page would fill them. */
  async preview(body: PreviewDto, user: AuthUser): Promise<{ html: string }> {
    this.input.assertContentSize(body.content);
    const problems = body.variables === undefined ? [] : variableProblems(body.variables);
    if (problems.length > 0) throw new FieldProblems(problems);
    const base = body.slug === undefined ? null : normaliseSlugField(body.slug);
    if (base !== null && !isValidSlug(base))
      throw new FieldProblems([
        { field: 'slug', code: 'invalid_slug', message: 'slug must be a valid page slug.' },
      ]);
    const site = await this.siteVariables.get();
    const html = await this.renders.render(
      body.content,
      mergeVariables(site.values, body.variables ?? {}),
      base,
    );
    return { html: await this.pageHtml.forReader(html, user, base) };
  }
}
