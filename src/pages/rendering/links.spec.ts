import { findMediaIds, findUsedMediaIds } from '../../common/text/media-urls';
import { internalHref, resolveInternalHref, safeDecode } from './links';
import { MarkdownRenderer } from './markdown-renderer';

describe('internal link resolution', () => {
  const resolve = (href: string, base: string | null = 'guides/setup/intro') =>
    resolveInternalHref(href, base)?.slug ?? null;

  it('resolves absolute and relative targets like a browser on /<slug>', () => {
    expect(resolve('/Docs/Home')).toBe('docs/home');
    expect(resolve('other')).toBe('guides/setup/other');
    expect(resolve('./other')).toBe('guides/setup/other');
    expect(resolve('../x')).toBe('guides/x');
    expect(resolve('../../x/y')).toBe('x/y');
    expect(resolve('../../../../x')).toBe('x');
    expect(resolve('/a/b#section')).toBe('a/b');
    expect(resolve('/a/b?x=1#s')).toBe('a/b');
    expect(resolve('/caf%C3%A9')).toBe('café');
  });

  it('keeps the fragment for the rendered href', () => {
    expect(internalHref(resolveInternalHref('../x#top', 'a/b')!)).toBe('/x#top');
    expect(internalHref(resolveInternalHref('/café', null)!)).toBe('/caf%C3%A9');
  });

  it('ignores external, anchor-only, API and invalid targets', () => {
    for (const href of [
      'https://example.com/a',
      'mailto:x@y.z',
      'javascript:alert(1)',
      '//evil.example/x',
      '#top',
      '?q=1',
      '/api/images/x/content',
      '/export/pdf/a',
      '/a b',
      '',
    ]) {
      expect(resolve(href)).toBeNull();
    }
    expect(resolve('relative', null)).toBeNull();
  });

  it('extracts links from Markdown (links, not images; anchors stripped; unique)', () => {
    const renderer = new MarkdownRenderer();
    const md = [
      '[a](/Alpha) [b](../beta#x) [again](/alpha#y) [ext](https://x.example) [top](#top)',
      '![img](/pictures/cat) [ref][r]',
      '',
      '[r]: ./gamma',
      '```',
      '[not a link](/code)',
      '```',
    ].join('\n');
    expect(renderer.extractLinks(md, 'docs/page').sort()).toEqual(['alpha', 'beta', 'docs/gamma']);
  });

  it('extracts media ids', () => {
    const id = '0b8a3c1e-2f4d-4a5b-9c6d-7e8f9a0b1c2d';
    expect(
      findMediaIds(
        `![x](/api/images/${id}/content) [f](/api/attachments/${id.toUpperCase()}/content) /api/images/nope/content`,
      ),
    ).toEqual([id]);
  });

  it('records media used through an absolute address as used, and only the media paths', () => {
    const a = '0b8a3c1e-2f4d-4a5b-9c6d-7e8f9a0b1c2d';
    const b = '1c9b4d2f-3e5a-4b6c-8d7e-8f9a0b1c2d3e';
    const md = `![x](https://kb.example.com:8443/api/images/${a}/content) [y](/api/attachments/${b}/content) x/api/images/${b}/content https://kb.example.com/api/images/${a}/contents`;
    expect(findUsedMediaIds(md)).toEqual([a, b]);
    // Export and import keep to root-relative references: the absolute one is not theirs.
    expect(findMediaIds(md)).toEqual([b]);
  });
});

describe('safeDecode', () => {
  it.each([
    ['caf%C3%A9', 'café'],
    ['a%20b', 'a b'],
    ['100%', '100%'],
    ['%E0%A4%A', '%E0%A4%A'],
    ['plain', 'plain'],
  ])('%s → %s', (raw, decoded) => {
    expect(safeDecode(raw)).toBe(decoded);
  });
});
