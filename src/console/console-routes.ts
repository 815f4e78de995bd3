/**
 * The console's screens: the one table of its URLs, read by the console's router
 * (console/src/app/router.tsx) and links (`paths` in console/src/lib/routes.ts) and by this
 * server, which answers the console's index.html for a GET of any of them, so a reload or a
 * pasted link works whatever the client accepts. `*` (a slug) and `:name` (a tag) stand for the
 * rest of the path. Other paths keep the API's behaviour (a 404 problem document for an unknown
 * one), except for a browser navigating outside the server's roots (isBrowserFallback). Pure
 * data: the console's bundle imports this file.
 */
export const CONSOLE_SCREENS = {
  home: '/',
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  invitation: '/invitation',
  search: '/search',
  newPage: '/new',
  notifications: '/notifications',
  tokens: '/tokens',
  drafts: '/drafts',
  changeRequests: '/change-requests',
  changeRequest: '/change-requests/:id',
  account: '/account',
  /** Where an app's authorization request asks the person (docs/oauth.md). */
  oauthConsent: '/consent/:uid',
  /** `/wiki` alone: the home screen lists the pages. */
  wiki: '/wiki',
  page: '/wiki/*',
  tags: '/tags',
  tag: '/tags/:tag',
  edit: '/edit/*',
  history: '/history/*',
  /** The administrator's workspace (its screens below it). */
  admin: '/admin',
  adminScreen: '/admin/*',
} as const;

export type ConsoleScreen = keyof typeof CONSOLE_SCREENS;

export const CONSOLE_ROUTES: readonly string[] = Object.values(CONSOLE_SCREENS);

/** The patterns as regular expressions: `*` and `:name` take the (non-empty) rest. */
const MATCHERS = CONSOLE_ROUTES.map(
  (route) => new RegExp(`^${route.replace(/\/(\*|:[a-z]+)$/i, '/.+')}$`),
);

/** True when `path` (no query string) is a console URL. */
export function isConsoleRoute(path: string): boolean {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return MATCHERS.some((matcher) => matcher.test(trimmed));
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
  'oauth',
  '.well-known',
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
