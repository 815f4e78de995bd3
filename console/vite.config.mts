import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The editor converts pasted HTML with the Confluence import's own code
 * (src/import/sources/html-markdown.ts, `kb-server/html-markdown`), in a lazy chunk. Its three
 * server-only imports get browser stand-ins: the DOM parser (domino → DOMParser), sanitize-html
 * (Node's postcss) and the pages feature's public API (only its language and tag lists).
 */
function serverHtmlToMarkdown(): Plugin {
  const paste = 'src/features/editor/paste/';
  const standIns: Record<string, string> = {
    './dom': here(`${paste}browser-dom.ts`),
    'sanitize-html': here(`${paste}sanitize-table.ts`),
    '../../pages/public-api': here(`${paste}html-markdown-deps.ts`),
  };
  return {
    name: 'kb-server-html-markdown',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'kb-server/html-markdown')
        return here('../src/import/sources/html-markdown.ts');
      if (importer?.replace(/\\/g, '/').endsWith('/src/import/sources/html-markdown.ts'))
        return standIns[source];
      return undefined;
    },
  };
}

/**
 * The console builds into dist/console/public, which kb's ConsoleModule serves: assets/ with
 * content-hashed names (cached for a year) and index.html (revalidated). The editor, diff and
 * admin screens are lazy routes, so they are chunks of their own.
 */
export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [serverHtmlToMarkdown()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console/public', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Fonts (KaTeX's) stay files: the console's CSP allows fonts from 'self', not data: URIs.
    assetsInlineLimit: (file: string) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // The editor chunk (CodeMirror with Markdown, which embeds HTML, CSS and JS parsing) loads only on editing routes.
    chunkSizeWarningLimit: 700,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      onwarn(warning, warn) {
        // React Query marks its modules "use client" for server components; nothing to do here.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
