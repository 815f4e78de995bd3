/**
 * src/import/sources/html-markdown.ts, the Confluence import's HTML → Markdown conversion,
 * bundled for the browser under this name (vite.config.mts); the server compiles and tests it.
 */
declare module 'kb-server/html-markdown' {
  export function htmlToMarkdown(html: string): string;
}
