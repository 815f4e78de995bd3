import { isConsoleRoute } from './console-routes';

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
  ])('%s is a console route', (path) => expect(isConsoleRoute(path)).toBe(true));

  it.each([
    '/api/pages',
    '/api',
    '/export/pdf/a',
    '/auth/login',
    '/healthz',
    '/readyz',
    '/wiki',
    '/wiki/',
    '/assets/index.js',
    '/loginx',
    '/favicon.ico',
  ])('%s is not', (path) => expect(isConsoleRoute(path)).toBe(false));
});
