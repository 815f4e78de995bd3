import { validate } from 'class-validator';
import { hasUnsafeCharacters, IsSafeText, unsafeTextProblem } from './safe-text';

describe('safe text', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a C0 control', 'a\u0007b'],
    ['a tab', 'a\tb'],
    ['a newline', 'a\nb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a right-to-left override', 'evil\u202egnp.exe'],
    ['a left-to-right embedding', '\u202aabc'],
    ['an isolate', 'a\u2066b\u2069'],
    ['a right-to-left mark', 'a\u200fb'],
    ['an Arabic letter mark', 'a\u061cb'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', 'a\udc00'],
    ['a surrogate pair backwards', '\udc00\ud800'],
  ])('refuses %s', (_label, value) => {
    expect(hasUnsafeCharacters(value)).toBe(true);
  });

  it.each([
    ['plain text', 'Ada Lovelace'],
    ['accents and other scripts', 'Zoë Ωμέγα 東京 עברית'],
    ['an emoji (a surrogate pair)', 'party 🎉'],
    ['a zero-width joiner in an emoji', '👩‍💻'],
    ['the empty string', ''],
  ])('accepts %s', (_label, value) => {
    expect(hasUnsafeCharacters(value)).toBe(false);
  });

  it('builds a field problem', () => {
    expect(unsafeTextProblem('name', 'a\u0000')).toEqual({
      field: 'name',
      code: 'invalid_characters',
      message:
        'name must not contain control characters, bidirectional formatting characters or unpaired surrogates.',
    });
    expect(unsafeTextProblem('name', 'fine')).toBeNull();
  });

  it('is a class-validator rule named invalidCharacters', async () => {
    class Dto {
      @IsSafeText()
      name: unknown;
    }
    const bad = Object.assign(new Dto(), { name: 'x\u202e' });
    const [error] = await validate(bad);
    expect(error.constraints).toEqual({
      invalidCharacters:
        'name must not contain control characters, bidirectional formatting characters or unpaired surrogates.',
    });
    expect(await validate(Object.assign(new Dto(), { name: 'ok' }))).toEqual([]);
    expect(await validate(Object.assign(new Dto(), { name: 5 }))).toEqual([]);
  });
});
