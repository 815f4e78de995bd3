import type { PageResponse } from '../dto/page-response.dto';
import { PageResponseCache, PageResponseFrame } from './page-response-cache';

const body = (overrides: Partial<PageResponse> = {}): PageResponse =>
  ({
    slug: 'docs/a',
    title: 'A "quoted" title \u2028',
    content: '# A\n\n\u0000backlinks "backlinks":null',
    deprecatedTarget: 'docs/b',
    tags: ['x'],
    revision: 3,
    html: '<h1>A</h1>',
    backlinks: [{ slug: 'docs/c', title: 'C' }],
    ...overrides,
  }) as PageResponse;

describe('PageResponseFrame', () => {
  it('renders the bytes JSON.stringify gives for the whole body, with the caller members', () => {
    const frame = PageResponseFrame.of(body());
    const members = { backlinks: [{ slug: 'docs/d', title: 'D' }], deprecatedTarget: null };
    expect(frame.render({ ...members, missing: new Set() }).toString('utf8')).toBe(
      JSON.stringify({ ...body(), ...members }),
    );
  });

  it("marks the caller's missing links in the HTML, leaving the frame as it was", () => {
    const html =
      '<p><a href="/docs/x">x</a> <a href="/docs/y#top">y</a> <a href="/docs/z">z</a></p>';
    const frame = PageResponseFrame.of(body({ html }));
    expect(frame.linksPages).toBe(true);
    const members = { backlinks: [], deprecatedTarget: null };
    const marked = frame.render({ ...members, missing: new Set(['docs/y', 'docs/z']) });
    expect(JSON.parse(marked.toString('utf8')).html).toBe(
      '<p><a href="/docs/x">x</a> <a href="/docs/y#top" class="kb-missing">y</a> ' +
        '<a href="/docs/z" class="kb-missing">z</a></p>',
    );
    expect(JSON.parse(frame.render({ ...members, missing: new Set() }).toString()).html).toBe(html);
  });
});

describe('PageResponseCache', () => {
  const cache = (megabytes: number) =>
    new PageResponseCache({ cacheBytes: megabytes * 1024 * 1024 });

  it('answers an entry only for the state it was built from', () => {
    const responses = cache(1);
    responses.put('p1', 'v1', body());
    expect(responses.get('p1', 'v1')).toBeDefined();
    expect(responses.get('p1', 'v2')).toBeUndefined();
    expect(responses.get('p2', 'v1')).toBeUndefined();
  });

  it('keeps nothing with PAGE_CACHE_MB=0', () => {
    const responses = cache(0);
    responses.put('p1', 'v1', body());
    expect(responses.get('p1', 'v1')).toBeUndefined();
  });

  it('drops the least recently read entries beyond its size', () => {
    const responses = cache(1);
    const big = body({ content: 'x'.repeat(100 * 1024) });
    for (let i = 0; i < 12; i++) responses.put(`p${i}`, 'v', big);
    expect(responses.get('p0', 'v')).toBeUndefined();
    expect(responses.get('p11', 'v')).toBeDefined();
  });

  it('tells which slugs it holds an entry for, as entries come and go', () => {
    const responses = cache(1);
    expect(responses.holds('docs/a')).toBe(false);
    responses.put('p1', 'v1', body());
    expect(responses.holds('docs/a')).toBe(true);
    // The page moved: its entry now stands for the new slug only.
    responses.put('p1', 'v2', body({ slug: 'docs/moved' }));
    expect(responses.holds('docs/a')).toBe(false);
    expect(responses.holds('docs/moved')).toBe(true);
    // Another page took the old slug; then both entries make way for bigger ones.
    responses.put('p2', 'v1', body());
    expect(responses.holds('docs/a')).toBe(true);
    const big = body({ slug: 'docs/big', content: 'x'.repeat(100 * 1024) });
    for (let i = 0; i < 12; i++) responses.put(`big${i}`, 'v', big);
    expect(responses.holds('docs/moved')).toBe(false);
    expect(responses.holds('docs/a')).toBe(false);
    expect(responses.holds('docs/big')).toBe(true);
  });
});
