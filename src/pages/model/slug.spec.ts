import { isValidSlug, normaliseSlug, normaliseSlugField, slugProblems } from './slug';

const codes = (slug: string, forCreate = true) =>
  slugProblems(normaliseSlug(slug), 'slug', forCreate).map((p) => p.code);

describe('slug rules', () => {
  it('normalises: NFC, lowercase, surrounding whitespace and slashes', () => {
    expect(normaliseSlug('  /Guides/Getting-Started/ ')).toBe('guides/getting-started');
    expect(normaliseSlug('Cafe\u0301')).toBe('caf\u00e9');
    expect(normaliseSlug('ÄRGER/Über')).toBe('ärger/über');
  });

  it('a slug field keeps its slashes: a leading or trailing one is an empty segment', () => {
    expect(normaliseSlugField('  Guides/Café ')).toBe('guides/café');
    const field = (slug: string) =>
      slugProblems(normaliseSlugField(slug), 'slug', true).map((p) => p.code);
    expect(field('/lead')).toEqual(['slug_empty_segment']);
    expect(field('trail/')).toEqual(['slug_empty_segment']);
    expect(field(' /both/ ')).toEqual(['slug_empty_segment']);
    expect(field('/')).toEqual(['slug_empty_segment']);
    expect(field('a//b')).toEqual(['slug_empty_segment']);
    expect(field('a/b')).toEqual([]);
  });

  it('accepts letters of any script, digits, "-", "_" and "."', () => {
    for (const slug of [
      'a',
      'docs/v1.2/setup_guide',
      'привет/мир',
      '日本語',
      'a-b_c.d',
      '.hidden',
      'x..y',
    ]) {
      expect(codes(slug)).toEqual([]);
    }
  });

  it('reports one problem per violation', () => {
    expect(codes('')).toEqual(['slug_empty']);
    expect(codes('a//b')).toEqual(['slug_empty_segment']);
    expect(codes('a/./b')).toEqual(['slug_dot_segment']);
    expect(codes('a/../b')).toEqual(['slug_dot_segment']);
    expect(codes('a b')).toEqual(['slug_invalid_characters']);
    expect(codes('a?b/c#d')).toEqual(['slug_invalid_characters']);
    expect(codes('a/raw')).toEqual(['slug_reserved']);
    expect(codes('a/raw', false)).toEqual([]);
    expect(codes('raw/a')).toEqual([]);
    expect(codes(Array.from({ length: 21 }, () => 'a').join('/'))).toEqual([
      'slug_too_many_segments',
    ]);
    expect(codes(Array.from({ length: 20 }, () => 'a').join('/'))).toEqual([]);
    expect(codes('a'.repeat(256))).toEqual(['slug_too_long']);
    expect(codes('ä'.repeat(255))).toEqual([]);
    expect(codes(Array.from({ length: 30 }, () => 'x y').join('/') + '/raw')).toEqual([
      'slug_too_many_segments',
      'slug_invalid_characters',
      'slug_reserved',
    ]);
  });

  it('isValidSlug agrees', () => {
    expect(isValidSlug('a/b')).toBe(true);
    expect(isValidSlug('a/raw')).toBe(true);
    expect(isValidSlug('a/raw', true)).toBe(false);
    expect(isValidSlug('a//b')).toBe(false);
  });
});
