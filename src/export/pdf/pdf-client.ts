import { Injectable, Logger } from '@nestjs/common';
import axios, { AxiosError, AxiosResponse } from 'axios';
import FormData from 'form-data';
import { InjectConfig } from '../../common/config/app-config';
import type { PdfConfig } from '../../common/config/pdf-config';
import { currentRequestId } from '../../common/http/request-context';
import { UpstreamProblem } from '../../common/problems/problem';
import { MARGIN_INCHES, PAGE_GEOMETRY } from '../print/page-geometry';
import { footerHtml, HeaderFooter, headerHtml } from './header-footer';

/** Gotenberg's Chromium HTML route, relative to PDF_SERVICE_URL. */
export const GOTENBERG_HTML_ROUTE = 'forms/chromium/convert/html';
/** Retry-After sent when an overloaded service does not say (Gotenberg usually does not). */
const DEFAULT_RETRY_AFTER_SECONDS = '5';
const MAX_PDF_BYTES = 512 * 1024 * 1024;
const NOT_CONFIGURED_DETAIL =
  'PDF export needs an HTML-to-PDF service. Set PDF_SERVICE_URL to a Gotenberg-compatible service ' +
  '(for example a Gotenberg container at http://gotenberg:3000, or `npm run pdf-service`, which listens on ' +
  'http://127.0.0.1:3001) and restart kb; PDF_SERVICE_TIMEOUT_MS, PDF_SERVICE_USERNAME and PDF_SERVICE_PASSWORD are optional.';

export interface PdfRequestOptions {
  /** Aborts the upstream request, e.g. when the browser went away. */
  signal?: AbortSignal;
  /** Sent as Gotenberg-Trace so both logs can be joined (the request id). */
  trace?: string;
  /** Title and date in the header, page numbers in the footer (`header.html`, `footer.html`). */
  headerFooter?: HeaderFooter;
}

/**
 * The HTML-to-PDF client: posts a self-contained HTML document as `index.html` to Gotenberg's
 * Chromium route with the A4 page geometry and maps every failure to a problem:
 * not configured → 503, unreachable or failing → 502, too slow → 504, overloaded → 503 + Retry-After.
 */
@Injectable()
export class PdfClient {
  private readonly logger = new Logger('PdfClient');

  constructor(@InjectConfig('pdf') private readonly pdfConfig: PdfConfig) {}

  get configured(): boolean {
    return Boolean(this.pdfConfig.serviceUrl);
  }

  /** Fails fast before any work when no service is configured. */
  assertConfigured(): void {
    if (!this.pdfConfig.serviceUrl)
      throw new UpstreamProblem(503, 'pdf_service_not_configured', NOT_CONFIGURED_DETAIL);
  }

  async render(html: string, options: PdfRequestOptions = {}): Promise<Buffer> {
    this.assertConfigured();
    const base = this.pdfConfig.serviceUrl!;
    const url = new URL(GOTENBERG_HTML_ROUTE, base.endsWith('/') ? base : `${base}/`).toString();
    const form = buildForm(html, options.headerFooter);
    // One deadline for the whole exchange (axios' own timeout is per socket inactivity).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.pdfConfig.timeoutMs);
    const signal = options.signal
      ? AbortSignal.any([options.signal, deadline.signal])
      : deadline.signal;
    const started = Date.now();
    try {
      return this.checkResponse(await this.post(url, form, signal, options.trace));
    } catch (error) {
      const problem =
        error instanceof UpstreamProblem
          ? error
          : this.transportProblem(error, deadline.signal.aborted);
      // One line per failed conversion, joined to the request (and Gotenberg's log) by its id.
      this.logger.warn({
        msg: 'pdf service failed',
        requestId: options.trace ?? currentRequestId(),
        code: problem.code,
        status: problem.status,
        reason: failureReason(error),
        elapsedMs: Date.now() - started,
      });
      throw problem;
    } finally {
      clearTimeout(timer);
    }
  }

  private post(
    url: string,
    form: FormData,
    signal: AbortSignal,
    trace: string | undefined,
  ): Promise<AxiosResponse<Buffer>> {
    return axios.post<Buffer>(url, form, {
      headers: {
        ...form.getHeaders(),
        ...(trace ? { 'Gotenberg-Trace': trace } : {}),
      },
      auth: this.pdfConfig.username
        ? {
            username: this.pdfConfig.username,
            password: this.pdfConfig.password ?? '',
          }
        : undefined,
      responseType: 'arraybuffer',
      signal,
      maxRedirects: 0,
      maxContentLength: MAX_PDF_BYTES,
      maxBodyLength: Infinity,
      validateStatus: () => true,
      proxy: false,
    });
  }

  private checkResponse(response: AxiosResponse<Buffer>): Buffer {
    const { status } = response;
    if (status === 503 || status === 429) {
      throw new UpstreamProblem(
        503,
        'pdf_service_overloaded',
        'The HTML-to-PDF service is busy. Try again shortly.',
        {
          'Retry-After': retryAfter(response.headers['retry-after']),
        },
      );
    }
    if (status !== 200) {
      const hint =
        status === 401 || status === 403
          ? ' (check PDF_SERVICE_USERNAME and PDF_SERVICE_PASSWORD)'
          : '';
      throw new UpstreamProblem(
        502,
        'pdf_service_failed',
        `The HTML-to-PDF service answered ${status}${hint}.`,
      );
    }
    const body = Buffer.from(response.data);
    if (body.subarray(0, 5).toString('latin1') !== '%PDF-') {
      throw new UpstreamProblem(
        502,
        'pdf_service_failed',
        'The HTML-to-PDF service did not answer with a PDF.',
      );
    }
    return body;
  }

  private transportProblem(error: unknown, timedOut: boolean): UpstreamProblem {
    if (timedOut) {
      return new UpstreamProblem(
        504,
        'pdf_service_timeout',
        `The HTML-to-PDF service did not answer within ${this.pdfConfig.timeoutMs} ms.`,
      );
    }
    const code = error instanceof AxiosError ? error.code : undefined;
    if (code === AxiosError.ERR_CANCELED) {
      return new UpstreamProblem(502, 'pdf_service_failed', 'The PDF request was cancelled.');
    }
    if (code === AxiosError.ERR_BAD_RESPONSE && /maxContentLength/.test((error as Error).message)) {
      return new UpstreamProblem(
        502,
        'pdf_service_failed',
        'The HTML-to-PDF service answered with a PDF that is too large.',
      );
    }
    return new UpstreamProblem(
      502,
      'pdf_service_failed',
      'The HTML-to-PDF service could not be reached.',
    );
  }
}

/**
 * The multipart form Gotenberg expects: the document as `index.html` (with `header.html` and
 * `footer.html` when asked for) plus page settings.
 */
export function buildForm(html: string, headerFooter?: HeaderFooter): FormData {
  const form = new FormData();
  const files: [string, string][] = [['index.html', html]];
  if (headerFooter)
    files.push(['header.html', headerHtml(headerFooter)], ['footer.html', footerHtml()]);
  for (const [filename, content] of files)
    form.append('files', Buffer.from(content, 'utf8'), {
      filename,
      contentType: 'text/html; charset=utf-8',
    });
  const fields: Record<string, string> = {
    paperWidth: String(PAGE_GEOMETRY.widthInches),
    paperHeight: String(PAGE_GEOMETRY.heightInches),
    marginTop: String(MARGIN_INCHES),
    marginBottom: String(MARGIN_INCHES),
    marginLeft: String(MARGIN_INCHES),
    marginRight: String(MARGIN_INCHES),
    printBackground: 'true',
    preferCssPageSize: 'true',
    generateDocumentOutline: 'true',
  };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** What went wrong, for the log: the service's status, or the transport error's code. */
function failureReason(error: unknown): string {
  if (error instanceof UpstreamProblem) return error.detail;
  const code = error instanceof AxiosError ? error.code : (error as { code?: string }).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** Passes a sane Retry-After through (seconds or an HTTP date); otherwise a short default. */
function retryAfter(value: unknown): string {
  if (typeof value !== 'string') return DEFAULT_RETRY_AFTER_SECONDS;
  const trimmed = value.trim();
  if (/^\d{1,7}$/.test(trimmed)) return trimmed;
  if (
    trimmed.length <= 64 &&
    /^[A-Za-z0-9 ,:]+$/.test(trimmed) &&
    !Number.isNaN(Date.parse(trimmed))
  )
    return trimmed;
  return DEFAULT_RETRY_AFTER_SECONDS;
}
