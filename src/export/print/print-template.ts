import { holdsMath, mathStylesheet } from './math-stylesheet';
import { PRINT_STYLESHEET } from './print-stylesheet';

/**
 * Belt and braces for a preview shown in a browser: even if something slipped through, the
 * document may load nothing but its own inline style and data: images, and run no script.
 */
const DOCUMENT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Only a BCP 47-looking tag reaches the lang attribute. */
function languageTag(language: string | null | undefined): string {
  return language && /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/.test(language) ? language : 'en';
}

/** The complete, self-contained print document around the rendered (sanitised) body. */
export function printDocument(
  title: string,
  language: string | null | undefined,
  bodyHtml: string,
): string {
  const safeTitle = escapeHtml(title);
  const stylesheet = holdsMath(bodyHtml)
    ? `${PRINT_STYLESHEET}\n${mathStylesheet()}`
    : PRINT_STYLESHEET;
  return (
    '<!DOCTYPE html>\n' +
    `<html lang="${languageTag(language)}">\n<head>\n<meta charset="utf-8">\n` +
    `<meta http-equiv="Content-Security-Policy" content="${DOCUMENT_CSP}">\n` +
    `<title>${safeTitle}</title>\n<style>\n${stylesheet}\n</style>\n</head>\n` +
    `<body>\n<article class="kb-print">\n<h1 class="kb-title">${safeTitle}</h1>\n${bodyHtml}\n</article>\n</body>\n</html>\n`
  );
}
