import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/auth-user';
import { PagesService, SiteVariablesService } from '../../pages/public-api';
import type { PrintVariableResponse } from '../dto/print-response.dto';

/**
 * The variables a print or PDF request may override for a page: those defined for the page or
 * site-wide that its content uses (the same rule that judges overrides), with their saved values.
 */
@Injectable()
export class PrintVariablesService {
  constructor(
    private readonly pages: PagesService,
    private readonly siteVariables: SiteVariablesService,
  ) {}

  async list(slug: string, user: AuthUser): Promise<PrintVariableResponse[]> {
    const page = await this.pages.getVisible(slug, user);
    const [names, values] = await Promise.all([
      this.siteVariables.usableVariableNames(page),
      this.siteVariables.resolveVariables(page),
    ]);
    return names.map((name) => ({
      name,
      value: values[name],
      source: Object.prototype.hasOwnProperty.call(page.variables, name) ? 'page' : 'site',
    }));
  }
}
