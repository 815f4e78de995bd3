import { rewriteReferences } from '../pages/public-api';
import { normalizePrefix, slugFromPath, slugProblem } from './slugs';

describe('rewriteReferences', () => {
  const upper = (markdown: string) =>
    rewriteReferences(markdown, (target, kind) => `${kind}:${target.toUpperCase()}`);

  it('rewrites inline links, images, images inside links, definitions and raw HTML', () => {
    expect(upper('[a](x.md "T") ![b](y.png) [![c](z.png)](w.md)')).toBe(
      '[a](link:X.MD "T") ![b](image:Y.PNG) [![c](image:Z.PNG)](link:W.MD)',
    );
    expect(upper('[ref]: docs/a.md "Title"\n[^1]: a footnote (not.md)')).toBe(
      '[ref]: link:DOCS/A.MD "Title"\n[^1]: a footnote (not.md)',
    );
    expect(upper('<img src="a.png" alt="x"> <a class="k" href="b.md">b</a>')).toBe(
      '<img src="image:A.PNG" alt="x"> <a class="k" href="link:B.MD">b</a>',
    );
    expect(upper('[sp](<my file.md>) [wiki](https://en.wikipedia.org/wiki/Foo_(bar))')).toBe(
      '[sp](<link:MY FILE.MD>) [wiki](link:HTTPS://EN.WIKIPEDIA.ORG/WIKI/FOO_(BAR))',
    );
  });

  it('drops the Wiki.js size suffix and leaves code alone', () => {
    expect(upper('![x](/a.png =100x50)')).toBe('![x](image:/A.PNG)');
    expect(upper('`[a](b.md)` and\n```\n[c](d.md)\n```\n~~~md\n![e](f.png)\n~~~')).toBe(
      '`[a](b.md)` and\n```\n[c](d.md)\n```\n~~~md\n![e](f.png)\n~~~',
    );
  });

  it('leaves a reference as it is when the callback says so', () => {
    expect(rewriteReferences('[a](b.md) ![c](d.png)', () => undefined)).toBe(
      '[a](b.md) ![c](d.png)',
    );
  });
});

describe('slugs', () => {
  it('maps paths segment by segment', () => {
    expect(slugFromPath('Guide/Getting Started (old)')).toBe('guide/getting-started-old');
    expect(slugFromPath('空间 1/Übersicht_v1.2')).toBe('空间-1/übersicht_v1.2');
    expect(slugFromPath('a/!!!')).toBeUndefined();
  });

  it('names slugs that cannot be stored', () => {
    expect(slugProblem('a/raw')).toContain('reserved');
    expect(slugProblem(Array.from({ length: 21 }, () => 'a').join('/'))).toContain('20 segments');
    expect(slugProblem('a'.repeat(256))).toContain('255');
    expect(slugProblem('docs/intro')).toBeUndefined();
    // Lengths count code points, as the pages module does: 200 astral letters are 400 UTF-16 units.
    expect(slugProblem('\u{1D400}'.repeat(200))).toBeUndefined();
    expect(slugProblem('\u{1D400}'.repeat(256))).toContain('255');
  });

  it('normalises the prefix field', () => {
    expect(normalizePrefix(' /Docs/V2/ ')).toEqual({ prefix: 'docs/v2' });
    expect(normalizePrefix('')).toEqual({ prefix: '' });
    expect(normalizePrefix('a/../b')).toEqual({ error: expect.stringContaining('invalid') });
  });
});
