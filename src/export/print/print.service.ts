import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/auth-user';
import { InjectConfig } from '../../common/config/app-config';
import type { PdfConfig } from '../../common/config/pdf-config';
import type { HttpConfig } from '../../common/config/http-config';
import type { PageRecord } from '../../pages/public-api';
import { PagesService, SiteVariablesService } from '../../pages/public-api';
import { PdfClient } from '../pdf/pdf-client';
import { validateOverrides } from './overrides';
import { PrintDocumentService } from './print-document.service';

export interface PdfFile {
  pdf: Buffer;
  slug: string;
}

/** The request a print is made for: its origin (for links) and, for a PDF, cancellation. */
export interface PrintRequest {
  /** `<protocol>://<host>` of the request; KB_PUBLIC_URL wins when set. */
  origin: string;
  signal?: AbortSignal;
  /** The request id, sent on to the PDF service. */
  trace?: string;
}

/**
 * The browser export routes: print preview and PDF, with request-local variable overrides.
 * Overrides live only in this request: nothing is stored, no page, revision or export changes.
 */
@Injectable()
export class PrintService {
  constructor(
    private readonly pages: PagesService,
    private readonly siteVariables: SiteVariablesService,
    private readonly documents: PrintDocumentService,
    private readonly pdfClient: PdfClient,
    @InjectConfig('pdf') private readonly pdfConfig: PdfConfig,
    @InjectConfig('http') private readonly httpConfig: HttpConfig,
  ) {}

  async preview(
    slug: string,
    user: AuthUser,
    requested: Record<string, unknown>,
    request: PrintRequest,
  ): Promise<{ document: string }> {
    const { page, overrides } = await this.resolve(slug, user, requested);
    return { document: await this.documents.build(page, user, this.baseUrl(request), overrides) };
  }

  /** `requested` empty = the saved values (GET; query parameters never set overrides). */
  async pdf(
    slug: string,
    user: AuthUser,
    requested: Record<string, unknown>,
    request: PrintRequest,
  ): Promise<PdfFile> {
    const { page, overrides } = await this.resolve(slug, user, requested);
    this.pdfClient.assertConfigured();
    const document = await this.documents.build(page, user, this.baseUrl(request), overrides);
    const pdf = await this.pdfClient.render(document, {
      signal: request.signal,
      trace: request.trace,
      headerFooter: this.pdfConfig.headerFooter
        ? { title: page.title, date: localDate(new Date()) }
        : undefined,
    });
    return { pdf, slug: page.slug };
  }

  private baseUrl(request: PrintRequest): string {
    return this.httpConfig.publicUrl ?? request.origin;
  }

  /** 404 for a page the user cannot see, 422 for bad overrides (the body's shape is the pipe's). */
  private async resolve(
    slug: string,
    user: AuthUser,
    requested: Record<string, unknown>,
  ): Promise<{ page: PageRecord; overrides: Record<string, string> }> {
    const page = await this.pages.getVisible(slug, user);
    if (Object.keys(requested).length === 0) return { page, overrides: {} };
    const [defined, usable] = await Promise.all([
      this.siteVariables.resolveVariables(page),
      this.siteVariables.usableVariableNames(page),
    ]);
    return { page, overrides: validateOverrides(requested, defined, usable) };
  }
}

/** YYYY-MM-DD in the server's time zone: the day the PDF was made, unambiguous everywhere. */
function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
