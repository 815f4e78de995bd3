import { PAGE_GEOMETRY } from './page-geometry';

/**
 * The one embedded print stylesheet (preview, browser print and PDF): A4 with fixed margins,
 * page breaks before `hr.page-break`, headings kept with what follows, code and tables that
 * wrap instead of running off the page, images scaled to the text width, callouts (GitHub
 * alerts) as coloured boxes kept on one page, highlighted code in a light theme, the table of
 * contents and footnotes. No url(), no @import, no web fonts: the document references nothing
 * outside itself (a page with math adds KaTeX's stylesheet with its fonts inline).
 */
export const PRINT_STYLESHEET = `
@page { size: ${PAGE_GEOMETRY.cssSize}; margin: ${PAGE_GEOMETRY.marginMm}mm; }
html { font-family: "DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif; font-size: 11pt; line-height: 1.45; color: #111; background: #fff; }
body { margin: 0; }
@media screen { body { max-width: 210mm; margin: 0 auto; padding: ${PAGE_GEOMETRY.marginMm}mm; box-sizing: border-box; } }
.kb-title { font-size: 22pt; line-height: 1.2; margin: 0 0 14pt; }
h1, h2, h3, h4, h5, h6 { line-height: 1.25; margin: 1.2em 0 0.5em; break-after: avoid; page-break-after: avoid; }
p, li, dd, blockquote { orphans: 3; widows: 3; }
a { color: #0645ad; text-decoration: none; }
hr { border: 0; border-top: 1px solid #ccc; margin: 1.2em 0; }
hr.page-break { break-before: page; page-break-before: always; border: 0; margin: 0; height: 0; }
pre, code, kbd { font-family: "DejaVu Sans Mono", "Liberation Mono", "Courier New", monospace; font-size: 9.5pt; }
code { background: #f3f3f3; padding: 0 2pt; border-radius: 2pt; overflow-wrap: anywhere; }
pre { background: #f6f6f6; border: 1px solid #e2e2e2; border-radius: 3pt; padding: 8pt; white-space: pre-wrap; overflow-wrap: anywhere; word-break: break-word; overflow: visible; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; width: 100%; max-width: 100%; table-layout: fixed; margin: 0.8em 0; }
th, td { border: 1px solid #bbb; padding: 3pt 5pt; vertical-align: top; text-align: left; overflow-wrap: anywhere; word-break: break-word; }
th { background: #f0f0f0; }
thead { display: table-header-group; }
tr, img, figure { break-inside: avoid; page-break-inside: avoid; }
img { max-width: 100%; height: auto; }
blockquote { margin: 0.8em 0; padding: 0 0 0 10pt; border-left: 3pt solid #ddd; color: #444; }
.markdown-alert { margin: 0.8em 0; padding: 4pt 8pt 4pt 10pt; border-left: 3pt solid #0969da; background: #f1f6fd; break-inside: avoid; page-break-inside: avoid; }
.markdown-alert > :first-child { margin-top: 0; }
.markdown-alert > :last-child { margin-bottom: 0; }
.markdown-alert-title { font-weight: bold; margin: 0 0 3pt; color: #0969da; }
.markdown-alert-title + * { margin-top: 0; }
details { margin: 0.8em 0; }
summary { font-weight: bold; }
.markdown-alert-tip { border-left-color: #1a7f37; background: #eff8f1; }
.markdown-alert-tip > .markdown-alert-title { color: #1a7f37; }
.markdown-alert-important { border-left-color: #8250df; background: #f5f0fd; }
.markdown-alert-important > .markdown-alert-title { color: #8250df; }
.markdown-alert-warning { border-left-color: #9a6700; background: #fdf7e6; }
.markdown-alert-warning > .markdown-alert-title { color: #9a6700; }
.markdown-alert-caution { border-left-color: #cf222e; background: #fdf0f0; }
.markdown-alert-caution > .markdown-alert-title { color: #cf222e; }
ul.contains-task-list { list-style: none; padding-left: 1.2em; }
.kb-missing-image { color: #777; font-style: italic; }
.hljs-comment, .hljs-quote { color: #6a737d; font-style: italic; }
.hljs-keyword, .hljs-selector-tag, .hljs-literal, .hljs-doctag, .hljs-meta .hljs-keyword { color: #d73a49; }
.hljs-string, .hljs-regexp, .hljs-meta .hljs-string { color: #032f62; }
.hljs-number, .hljs-attr, .hljs-attribute, .hljs-variable, .hljs-template-variable, .hljs-selector-attr, .hljs-selector-class, .hljs-selector-id { color: #005cc5; }
.hljs-title, .hljs-section, .hljs-title.class_, .hljs-title.function_ { color: #6f42c1; }
.hljs-type, .hljs-built_in, .hljs-symbol, .hljs-name, .hljs-tag { color: #22863a; }
.hljs-meta, .hljs-params { color: #24292e; }
.hljs-addition { color: #22863a; background: #f0fff4; }
.hljs-deletion { color: #b31d28; background: #ffeef0; }
.hljs-emphasis { font-style: italic; }
.hljs-strong { font-weight: bold; }
nav.kb-toc { margin: 0.8em 0 1.2em; padding: 6pt 10pt; border: 1px solid #e2e2e2; border-radius: 3pt; break-inside: avoid; page-break-inside: avoid; }
nav.kb-toc ul { margin: 0; padding-left: 1.2em; }
section.footnotes { font-size: 9.5pt; color: #333; }
.kb-include { margin: 0.8em 0; }
.kb-include-note { color: #555; font-style: italic; }
hr.footnotes-sep { margin-top: 2em; }
.kb-math { overflow-wrap: normal; }
div.kb-math { margin: 0.8em 0; text-align: center; break-inside: avoid; page-break-inside: avoid; }
.kb-math-error code { color: #b31d28; }
.kb-math-error-message { color: #b31d28; font-size: 9pt; }
figure.kb-diagram { margin: 0.8em 0; text-align: center; break-inside: avoid; page-break-inside: avoid; }
figure.kb-diagram svg { max-width: 100%; height: auto; }
.kb-diagram-note { color: #6a737d; font-size: 9pt; font-style: italic; margin-bottom: 2pt; }
`
  .trim()
  .replace(/\n+/g, '\n');
