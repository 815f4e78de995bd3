import { ifMatchAllows, parseIfMatch } from './preconditions';

describe('If-Match (strong comparison, RFC 9110)', () => {
  it('parses *, strong tags and lists; drops weak and foreign tags', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch('  ')).toBeUndefined();
    expect(parseIfMatch('*')).toEqual({ any: true });
    expect(parseIfMatch('"3"')).toEqual({ any: false, revisions: [3] });
    expect(parseIfMatch('"2", "3"')).toEqual({ any: false, revisions: [2, 3] });
    expect(parseIfMatch('W/"3"')).toEqual({ any: false, revisions: [] });
    expect(parseIfMatch('W/"3", "4"')).toEqual({ any: false, revisions: [4] });
    expect(parseIfMatch('"abc", "0", "01"')).toEqual({ any: false, revisions: [] });
  });

  it('refuses malformed headers with 400 invalid_if_match', () => {
    for (const bad of ['3', 'yesterday', '"3', 'w/"3"', '"3" "4"', ',', '"a"b"', '*, "3"']) {
      expect(() => parseIfMatch(bad)).toThrow(
        expect.objectContaining({ status: 400, code: 'invalid_if_match' }),
      );
    }
  });

  it('a weak tag never matches; any listed strong tag does', () => {
    expect(ifMatchAllows(parseIfMatch('W/"3"'), 3)).toBe(false);
    expect(ifMatchAllows(parseIfMatch('"2", "3"'), 3)).toBe(true);
    expect(ifMatchAllows(parseIfMatch('"2", "3"'), 4)).toBe(false);
    expect(ifMatchAllows(parseIfMatch('*'), 9)).toBe(true);
    expect(ifMatchAllows(undefined, 9)).toBe(true);
  });
});
