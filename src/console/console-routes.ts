/**
 * The console's client-side routes. A GET of one of these paths answers the console's
 * index.html, so a reload or a pasted link works; every other path keeps the API's behaviour
 * (a 404 problem document for an unknown one). `/admin` is reserved for the administrator's
 * workspace (console part 2). The console's router (console/src/app/routes.ts) uses the same list.
 */
export const CONSOLE_ROUTES = [
  '/',
  '/login',
  '/search',
  '/new',
  '/notifications',
  '/tokens',
  '/tags',
  '/tags/*',
  '/wiki/*',
  '/edit/*',
  '/history/*',
  '/admin',
  '/admin/*',
] as const;

const exact = new Set<string>(CONSOLE_ROUTES.filter((r) => !r.endsWith('/*')));
const prefixes = CONSOLE_ROUTES.filter((r) => r.endsWith('/*')).map((r) => r.slice(0, -1));

/** True when `path` (no query string) is a console URL. */
export function isConsoleRoute(path: string): boolean {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return (
    exact.has(trimmed) || prefixes.some((p) => trimmed.startsWith(p) && trimmed.length > p.length)
  );
}
