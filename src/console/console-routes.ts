/**
 * The console's client-side routes. A GET of one of these paths answers the console's
 * index.html, so a reload or a pasted link works, whatever the client accepts. Other paths keep
 * the API's behaviour (a 404 problem document for an unknown one), except for a browser
 * navigating outside the server's roots (isBrowserFallback). `/admin` is reserved for the
 * administrator's workspace. The console's router (console/src/app/router.tsx) has these too.
 */
export const CONSOLE_ROUTES = [
  '/',
  '/login',
  '/search',
  '/new',
  '/notifications',
  '/tokens',
  '/drafts',
  '/change-requests',
  '/account',
  '/wiki',
  '/tags',
  '/tags/*',
  '/wiki/*',
  '/edit/*',
  '/history/*',
  '/change-requests/*',
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

/**
 * First path segments that belong to the server (the API, browser exports, sign-in, probes):
 * never answered with the console, whatever the client accepts. Every route kb declares starts
 * with one of them (test/e2e/console-serving checks the route inventory).
 */
export const SERVER_ROOTS = [
  'api',
  'auth',
  'export',
  'mcp',
  'healthz',
  'readyz',
  'metrics',
  'assets',
];

/**
 * True when a GET of `path` that no console route claims should still open the console: a
 * browser navigating (it accepts text/html) to an address outside the server's roots, such as
 * a page address without `/wiki` or a mistyped screen. The console shows the page or "Not
 * found"; API clients (JSON, problem+json, no Accept) keep the API's 404 problem.
 */
export function isBrowserFallback(path: string, accept: string | undefined): boolean {
  const root = path.split('/')[1] ?? '';
  if (SERVER_ROOTS.includes(root)) return false;
  return acceptsHtml(accept);
}

/** Whether an Accept header takes text/html (at a quality above 0). */
function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return type.trim() === 'text/html' && (!q || Number(q.slice(2)) > 0);
  });
}
