import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * KaTeX's stylesheet for a print document that holds typeset math, with each font embedded
 * as a `data:` URI (woff2 only: Chromium, which makes the PDFs, reads it), so the PDF shows
 * the formulas with no network and the document stays self-contained. Read once, on the first
 * document with math (~300 KB of fonts; a few milliseconds).
 */
let stylesheet: string | undefined;

export function mathStylesheet(): string {
  if (stylesheet !== undefined) return stylesheet;
  const dist = join(dirname(require.resolve('katex/package.json')), 'dist');
  const css = readFileSync(join(dist, 'katex.min.css'), 'utf8');
  stylesheet = css.replace(/src:url\(fonts\/([\w-]+)\.woff2\)[^;}]*/g, (_all, font: string) => {
    const data = readFileSync(join(dist, 'fonts', `${font}.woff2`)).toString('base64');
    return `src:url(data:font/woff2;base64,${data}) format("woff2")`;
  });
  return stylesheet;
}

/** Whether rendered HTML holds math typeset by KaTeX. */
export function holdsMath(html: string): boolean {
  return html.includes('class="katex');
}
