import { isBrowserFallback, isConsoleRoute } from './console-routes';

describe('isConsoleRoute', () => {
  it.each([
    '/',
    '/login',
    '/search',
    '/wiki/guides/setup',
    '/wiki/a',
    '/edit/a/b',
    '/history/a',
    '/tags',
    '/tags/ops',
    '/tokens',
    '/notifications/',
    '/admin',
    '/admin/import',
    '/drafts',
    '/account',
    '/wiki',
    '/wiki/',
  ])('%s is a console route', (path) => expect(isConsoleRoute(path)).toBe(true));

  it.each([
    '/api/pages',
    '/api',
    '/export/pdf/a',
    '/auth/login',
    '/healthz',
    '/readyz',
    '/assets/index.js',
    '/loginx',
    '/favicon.ico',
  ])('%s is not', (path) => expect(isConsoleRoute(path)).toBe(false));
});

describe('isBrowserFallback', () => {
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  it.each(['/handbook/index', '/team/über-uns', '/nope', '/favicon.png', '/a/b/c'])(
    'a browser navigating to %s gets the console',
    (path) => expect(isBrowserFallback(path, browser)).toBe(true),
  );

  it.each(['/api/nope', '/api', '/auth/nope', '/export/x', '/healthz', '/metrics', '/assets/x.js'])(
    "%s stays the server's even for a browser",
    (path) => expect(isBrowserFallback(path, browser)).toBe(false),
  );

  it.each([undefined, '', 'application/json', '*/*', 'application/problem+json', 'text/html;q=0'])(
    'Accept %p keeps the problem document',
    (accept) => expect(isBrowserFallback('/handbook/index', accept)).toBe(false),
  );
});
