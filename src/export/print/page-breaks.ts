import { randomBytes } from 'node:crypto';
import { codeFenceTracker } from '../../pages/public-api';

/**
 * The agreed Markdown page-break marker is a line holding only `<!-- pagebreak -->` (also
 * `<!-- page-break -->`; invisible in the normal page view, where HTML comments are dropped).
 * A line holding only `<hr class="page-break">` works too.
 */
const MARKER =
  /^ {0,3}(?:<!--\s*page-?break\s*-->|<hr\s+class\s*=\s*(?:"page-break"|'page-break'|page-break)\s*\/?>)\s*$/i;

export interface PageBreaks {
  /** The Markdown with each marker line replaced by a placeholder paragraph. */
  markdown: string;
  /** Puts `<hr class="page-break">` where the placeholders ended up in the rendered HTML. */
  restore(html: string): string;
}

/**
 * The renderer's sanitiser drops comments and `hr` classes, so markers outside fenced code
 * become a random placeholder paragraph before rendering and the page-break rule after it.
 */
export function markPageBreaks(markdown: string): PageBreaks {
  if (!/pagebreak|page-break/i.test(markdown)) return { markdown, restore: (html) => html };
  const token = `kbpagebreak${randomBytes(8).toString('hex')}`;
  const inFence = codeFenceTracker();
  let found = false;
  const lines = markdown.split('\n').map((line) => {
    if (inFence(line) || !MARKER.test(line)) return line;
    found = true;
    return `\n${token}\n`;
  });
  if (!found) return { markdown, restore: (html) => html };
  return {
    markdown: lines.join('\n'),
    restore: (html) => html.split(`<p>${token}</p>`).join('<hr class="page-break" />'),
  };
}
