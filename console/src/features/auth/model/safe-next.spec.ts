import { safeNext } from './safe-next';

const ORIGIN = 'https://wiki.example.com';

describe('safeNext: the place to return to after signing in', () => {
  it.each([
    ['/wiki/handbook', '/wiki/handbook'],
    ['/wiki/handbook?tab=history#top', '/wiki/handbook?tab=history#top'],
    ['/search?q=a%20b', '/search?q=a%20b'],
    ['/', '/'],
  ])('keeps the path of this site %s', (next, expected) => {
    expect(safeNext(next, ORIGIN)).toBe(expected);
  });

  it.each([
    null,
    '',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '//evil.example',
    '///evil.example',
    'https://evil.example',
    'HTTPS://evil.example/wiki',
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'evil.example',
    '%2F%2Fevil.example',
    '/%2Fevil.example',
    '/%5Cevil.example',
    '%2F%5Cevil.example',
    '/%252F%252Fevil.example',
    '/\tevil.example',
    '/\n/evil.example',
    '/%0A/evil.example',
    '/%E0%A4%A',
  ])('sends %j to the home page', (next) => {
    expect(safeNext(next, ORIGIN)).toBe('/');
  });
});
