import { etagMatches } from './etag';

describe('etagMatches (If-None-Match, weak comparison)', () => {
  it.each<[string | undefined, string, boolean]>([
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ['"a"', 'W/"a"', true],
    ['W/"a"', 'W/"a"', true],
    ['"b", "a"', '"a"', true],
    [' "b" ,W/"a" ', '"a"', true],
    ['*', '"a"', true],
    [' * ', '"a"', true],
    ['"b"', '"a"', false],
    ['"a"', '"ab"', false],
    ['a', '"a"', false],
    ['"3"', '"31"', false],
    [undefined, '"a"', false],
    ['', '"a"', false],
    ['   ', '"a"', false],
    ['*, "a"', '"b"', false],
  ])('%j against %s → %s', (header, etag, expected) => {
    expect(etagMatches(header, etag)).toBe(expected);
  });
});
