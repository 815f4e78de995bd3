import { CONSOLE_SCREENS, type ConsoleScreen } from '../../../src/console/console-routes';

/**
 * The console's URLs come from one table, CONSOLE_SCREENS (src/console/console-routes.ts),
 * which the server reads too: the router takes its patterns (`routePath`), links are built
 * from them (`paths`).
 */
export { CONSOLE_SCREENS };

/** A slug in a URL: each segment percent-encoded on its own, so slashes stay. */
export function encodeSlug(slug: string): string {
  return slug.split('/').map(encodeURIComponent).join('/');
}

/** A screen's pattern as a child route of the app shell (without the leading slash). */
export function routePath(screen: ConsoleScreen): string {
  return CONSOLE_SCREENS[screen].slice(1);
}

/** A screen's address, with the slug or tag its pattern takes (already encoded). */
function fill(screen: ConsoleScreen, value = ''): string {
  return CONSOLE_SCREENS[screen].replace(/(\*|:[a-z]+)$/i, value);
}

const withQuery = (path: string, name: string, value?: string) =>
  value ? `${path}?${name}=${encodeURIComponent(value)}` : path;

export const paths = {
  home: () => fill('home'),
  login: (next?: string) => withQuery(fill('login'), 'next', next),
  forgotPassword: () => fill('forgotPassword'),
  page: (slug: string) => fill('page', encodeSlug(slug)),
  edit: (slug: string) => fill('edit', encodeSlug(slug)),
  history: (slug: string) => fill('history', encodeSlug(slug)),
  newPage: (parent?: string) => withQuery(fill('newPage'), 'parent', parent),
  search: (q: string) => `${fill('search')}?q=${encodeURIComponent(q)}`,
  tag: (name: string) => fill('tag', encodeURIComponent(name)),
  tags: () => fill('tags'),
  notifications: () => fill('notifications'),
  tokens: () => fill('tokens'),
  drafts: () => fill('drafts'),
  account: () => fill('account'),
  admin: (screen?: string) => (screen ? `${fill('admin')}/${screen}` : fill('admin')),
};
