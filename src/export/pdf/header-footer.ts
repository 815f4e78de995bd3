import { escapeHtml } from '../print/print-template';
import { PAGE_GEOMETRY } from '../print/page-geometry';

/** What the header of every PDF page shows. */
export interface HeaderFooter {
  title: string;
  /** The day the PDF was made (YYYY-MM-DD). */
  date: string;
}

/**
 * Chromium draws the header and footer in the page margins, from templates with no styles of
 * their own (its default font size is unreadably small) that load nothing: everything is inline.
 * Gotenberg fills `pageNumber` and `totalPages` (Chromium's classes) on every page.
 */
const STYLE =
  `html, body { margin: 0; padding: 0; }` +
  ` .kb-band { box-sizing: border-box; width: 100%; padding: 0 ${PAGE_GEOMETRY.marginMm}mm;` +
  ` display: flex; justify-content: space-between; gap: 8mm; font: 8pt/1.3 sans-serif; color: #555; }` +
  ` .kb-title { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }` +
  ` .kb-date { white-space: nowrap; }` +
  ` .kb-pages { width: 100%; text-align: center; }`;

function page(body: string): string {
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><style>${STYLE}</style></head><body>${body}</body></html>\n`;
}

/** Gotenberg's `header.html`: the page title on the left, the date on the right. */
export function headerHtml({ title, date }: HeaderFooter): string {
  return page(
    `<div class="kb-band"><span class="kb-title">${escapeHtml(title)}</span><span class="kb-date">${escapeHtml(date)}</span></div>`,
  );
}

/** Gotenberg's `footer.html`: "Page N of M". */
export function footerHtml(): string {
  return page(
    '<div class="kb-band"><span class="kb-pages">Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>',
  );
}
