import { Injectable } from '@nestjs/common';
import { FieldProblems } from '../common/problems/problem';
import { PreviewDto } from './dto/page.dto';
import { RenderPool } from './rendering/render-pool';
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
  ) {}

  async preview(body: PreviewDto): Promise<{ html: string }> {
    this.input.assertContentSize(body.content);
    const problems = body.variables === undefined ? [] : variableProblems(body.variables);
    if (problems.length > 0) throw new FieldProblems(problems);
    const base = body.slug === undefined ? null : normaliseSlugField(body.slug);
    if (base !== null && !isValidSlug(base))
      throw new FieldProblems([
        { field: 'slug', code: 'invalid_slug', message: 'slug must be a valid page slug.' },
      ]);
    const site = await this.siteVariables.get();
    return {
      html: await this.renders.render(
        body.content,
        mergeVariables(site.values, body.variables ?? {}),
        base,
      ),
    };
  }
}
