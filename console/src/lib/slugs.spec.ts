import { ancestorsOf, consoleHrefOf, encodeSlug, paths } from './slugs';

describe('console URLs of pages', () => {
  it('encodes each segment and keeps the slashes', () => {
    expect(encodeSlug('guides/café au lait')).toBe('guides/caf%C3%A9%20au%20lait');
    expect(paths.page('a/b')).toBe('/wiki/a/b');
    expect(paths.edit('a/b')).toBe('/edit/a/b');
    expect(paths.search('a b&c')).toBe('/search?q=a%20b%26c');
  });

  it('maps internal links of page HTML into the console and leaves the rest alone', () => {
    expect(consoleHrefOf('/guides/setup#install')).toBe('/wiki/guides/setup#install');
    expect(consoleHrefOf('/wiki/x')).toBe('/wiki/x');
    expect(consoleHrefOf('/api/attachments/1/content')).toBeNull();
    expect(consoleHrefOf('/export/pdf/a')).toBeNull();
    expect(consoleHrefOf('/auth/logout')).toBeNull();
    expect(consoleHrefOf('/healthz')).toBeNull();
    expect(consoleHrefOf('https://example.com/a')).toBeNull();
    expect(consoleHrefOf('//evil.example/a')).toBeNull();
    expect(consoleHrefOf('#top')).toBeNull();
    expect(consoleHrefOf('mailto:a@b.c')).toBeNull();
  });

  it('lists breadcrumbs', () => {
    expect(ancestorsOf('a/b/c')).toEqual([
      { name: 'a', slug: 'a' },
      { name: 'b', slug: 'a/b' },
      { name: 'c', slug: 'a/b/c' },
    ]);
  });
});
