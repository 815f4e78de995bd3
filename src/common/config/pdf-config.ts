import { Env, IntRange, IsBool, IsUrlOf } from './env-schema';

/** The HTML-to-PDF service (Gotenberg) behind /export/pdf: docs/export.md. */
export class PdfConfig {
  /** PDF_SERVICE_URL: unset, PDF routes answer 503. */
  @Env('PDF_SERVICE_URL') @IsUrlOf(['http:', 'https:']) serviceUrl?: string;

  @Env('PDF_SERVICE_TIMEOUT_MS', 'int') @IntRange(100, 600_000) timeoutMs = 30_000;

  /** PDF_HEADER_FOOTER: page numbers, title and date in the header and footer of every PDF. */
  @Env('PDF_HEADER_FOOTER', 'bool') @IsBool() headerFooter = true;

  @Env('PDF_SERVICE_USERNAME') username?: string;

  @Env('PDF_SERVICE_PASSWORD') password?: string;
}
