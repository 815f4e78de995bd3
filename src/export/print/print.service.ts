import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/auth-user';
import type { PageEntity } from '../../pages/entities/page.entity';
import { PagesService } from '../../pages/pages.service';
import { PdfClient } from '../pdf/pdf-client';
import { parseOverrideBody, validateOverrides } from './overrides';
import { PrintDocumentService } from './print-document.service';

export interface PdfFile {
  pdf: Buffer;
  slug: string;
}

/**
 * The browser export routes: print preview and PDF, with request-local variable overrides.
 * Overrides live only in this request: nothing is stored, no page, revision or export changes.
 */
@Injectable()
export class PrintService {
  constructor(
    private readonly pages: PagesService,
    private readonly documents: PrintDocumentService,
    private readonly pdfClient: PdfClient,
  ) {}

  async preview(slug: string, user: AuthUser, body: unknown): Promise<{ document: string }> {
    const { page, overrides } = await this.resolve(slug, user, body);
    return { document: await this.documents.build(page, overrides) };
  }

  /** `body` undefined = the saved values (GET; query parameters never set overrides). */
  async pdf(
    slug: string,
    user: AuthUser,
    body: unknown,
    options: { signal?: AbortSignal; trace?: string } = {},
  ): Promise<PdfFile> {
    const { page, overrides } = await this.resolve(slug, user, body);
    this.pdfClient.assertConfigured();
    const document = await this.documents.build(page, overrides);
    return { pdf: await this.pdfClient.render(document, options), slug: page.slug };
  }

  /** 400 for a malformed body, 404 for a page the user cannot see, 422 for bad overrides. */
  private async resolve(
    slug: string,
    user: AuthUser,
    body: unknown,
  ): Promise<{ page: PageEntity; overrides: Record<string, string> }> {
    const requested = parseOverrideBody(body);
    const page = await this.pages.getVisible(slug, user);
    if (Object.keys(requested).length === 0) return { page, overrides: {} };
    const [defined, usable] = await Promise.all([
      this.pages.resolveVariables(page),
      this.pages.usableVariableNames(page),
    ]);
    return { page, overrides: validateOverrides(requested, defined, usable) };
  }
}
