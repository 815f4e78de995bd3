import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

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
