import { parseSearchQuery, toBooleanMatch, toFts5Match, tokenize } from './search-terms';

describe('search terms', () => {
  it('keeps only words, lower-cased, unique, in order', () => {
    expect(
      tokenize(`"Hello" world* -x OR (a:b) 'hello' NEAR(c d) 50% ;DROP TABLE pages;--`),
    ).toEqual({
      words: [
        'hello',
        'world',
        'x',
        'or',
        'a',
        'b',
        'near',
        'c',
        'd',
        '50',
        'drop',
        'table',
        'pages',
      ],
      prefixLast: true,
    });
    // The last word is a prefix (search as you type), with or without a trailing `*`.
    expect(tokenize('Kubern*')).toEqual({ words: ['kubern'], prefixLast: true });
    expect(tokenize('rollb')).toEqual({ words: ['rollb'], prefixLast: true });
    expect(tokenize('kubern* guide')).toEqual({ words: ['kubern', 'guide'], prefixLast: true });
    expect(tokenize('ro')).toEqual({ words: ['ro'], prefixLast: true });
    // One letter matches whole.
    expect(tokenize('deploy k')).toEqual({ words: ['deploy', 'k'], prefixLast: false });
    expect(tokenize('crème brûlée 東京')).toEqual({
      words: ['crème', 'brûlée', '東京'],
      prefixLast: true,
    });
    expect(tokenize('*** %% --')).toEqual({ words: [], prefixLast: false });
  });

  it('quotes every word for FTS5 so operators are plain words', () => {
    expect(toFts5Match(tokenize('NOT near AND title*'))).toBe('"not" "near" "and" "title"*');
    expect(toFts5Match(tokenize('deploy guide'))).toBe('"deploy" "guide"*');
    expect(toFts5Match(tokenize('deploy g'))).toBe('"deploy" "g"');
  });

  it('requires every indexable word in BOOLEAN MODE and drops words InnoDB does not index', () => {
    expect(toBooleanMatch(tokenize('go deploy guide*'), 3)).toBe('+deploy +guide*');
    expect(toBooleanMatch(tokenize('deploy gu'), 3)).toBe('+deploy');
    expect(toBooleanMatch(tokenize('go to'), 3)).toBeNull();
  });

  it('refuses missing, repeated, blank and overlong queries with a field problem on q', () => {
    const codeOf = (value: unknown): string | undefined => {
      try {
        parseSearchQuery(value);
        return undefined;
      } catch (error) {
        return (error as { errors: { field: string; code: string }[] }).errors
          .map((e) => `${e.field}:${e.code}`)
          .join();
      }
    };
    expect(codeOf(undefined)).toBe('q:required');
    expect(codeOf(['a', 'b'])).toBe('q:invalid');
    expect(codeOf('   ')).toBe('q:blank');
    expect(codeOf('x'.repeat(257))).toBe('q:too_long');
    expect(codeOf('x'.repeat(256))).toBeUndefined();
  });
});
