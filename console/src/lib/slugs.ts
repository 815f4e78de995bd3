/**
 * Console URLs of pages. `/wiki/<slug>` is the canonical address of a page (PDF links and
 * notifications point there); each segment is percent-encoded on its own so slashes stay.
 */
export function encodeSlug(slug: string): string {
  return slug.split('/').map(encodeURIComponent).join('/');
}

export const paths = {
  home: () => '/',
  login: (next?: string) => (next ? `/login?next=${encodeURIComponent(next)}` : '/login'),
  page: (slug: string) => `/wiki/${encodeSlug(slug)}`,
  edit: (slug: string) => `/edit/${encodeSlug(slug)}`,
  history: (slug: string) => `/history/${encodeSlug(slug)}`,
  newPage: (parent?: string) => (parent ? `/new?parent=${encodeURIComponent(parent)}` : '/new'),
  search: (q: string) => `/search?q=${encodeURIComponent(q)}`,
  tag: (name: string) => `/tags/${encodeURIComponent(name)}`,
  tags: () => '/tags',
  notifications: () => '/notifications',
  tokens: () => '/tokens',
  drafts: () => '/drafts',
  account: () => '/account',
};

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
