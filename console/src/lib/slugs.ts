/**
 * Console URLs of pages. `/wiki/<slug>` is the canonical address of a page (PDF links and
 * notifications point there); the addresses come from the one table of screens (./routes).
 */
export { encodeSlug, paths } from './routes';

/** The slug of a `/wiki/*`-style splat as the router hands it (already decoded). */
export function slugFromSplat(splat: string | undefined): string {
  return (splat ?? '').replace(/^\/+|\/+$/g, '');
}

/** Path prefixes that belong to the server, never to the console. */
const SERVER_PREFIXES = ['/api/', '/export/', '/auth/', '/healthz', '/readyz', '/assets/'];

/**
 * Where an internal link of rendered page HTML leads in the console. The renderer writes
 * internal links as absolute slug paths (`/guides/setup#install`); they become
 * `/wiki/guides/setup#install`. Other links (external, API downloads, anchors) stay.
 */
export function consoleHrefOf(href: string): string | null {
  if (!href.startsWith('/') || href.startsWith('//')) return null;
  if (SERVER_PREFIXES.some((p) => href === p.replace(/\/$/, '') || href.startsWith(p))) return null;
  if (href.startsWith('/wiki/')) return href;
  return `/wiki${href}`;
}

/** Breadcrumb parts of a slug: each ancestor with its own slug. */
export function ancestorsOf(slug: string): { name: string; slug: string }[] {
  const parts = slug.split('/');
  return parts.map((name, i) => ({ name, slug: parts.slice(0, i + 1).join('/') }));
}
