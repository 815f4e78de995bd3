import { validate } from 'class-validator';
import { canonicalUsername, hasRefusedUsernameCharacters, IsUsernameText } from './username';
import { assignUsernameKeys } from './username-keys';

describe('canonicalUsername', () => {
  it.each([
    ['READER2', 'reader2'],
    ['ｒｅａｄｅｒ２', 'reader2'],
    ['ＲＥＡＤＥＲ２', 'reader2'],
    ['reader\u200b2', 'reader2'],
    ['\ufeffreader\u200d2\u200c', 'reader2'],
    ['reader\u200e2\u202e', 'reader2'],
    ['read\u00ader2', 'reader2'],
    ['  reader2\u3000', 'reader2'],
    ['𝐫𝐞𝐚𝐝𝐞𝐫𝟐', 'reader2'],
    ['\u212aate', 'kate'],
    ['Straße', 'strasse'],
    ['ﬁle', 'file'],
  ])('folds %j to %j', (input, expected) => {
    expect(canonicalUsername(input)).toBe(expected);
  });

  it('keeps accents: réader2 is another name than reader2', () => {
    expect(canonicalUsername('réader2')).toBe('réader2');
    expect(canonicalUsername('re\u0301ader2')).toBe('réader2');
    expect(canonicalUsername('RÉADER2')).toBe('réader2');
  });

  it('is idempotent', () => {
    for (const name of ['ＲＥＡＤＥＲ２', 'Straße', 'ΣΊΣΥΦΟΣ', 'İstanbul', 'a\u200bb', 'ǅemal']) {
      const once = canonicalUsername(name);
      expect(canonicalUsername(once)).toBe(once);
    }
  });

  it('refuses controls, private use, line separators and lone surrogates', () => {
    for (const bad of ['a\u0000b', 'a\nb', 'a\u0085b', 'a\ue000b', 'a\u2028b', 'a\ud800b']) {
      expect(hasRefusedUsernameCharacters(bad)).toBe(true);
    }
    for (const good of ['reader2', 'ｒｅａｄｅｒ２', 'reader\u200b2', 'réader2', '😀']) {
      expect(hasRefusedUsernameCharacters(good)).toBe(false);
    }
  });

  it('is a class-validator rule named invalidCharacters', async () => {
    class Body {
      @IsUsernameText()
      username: unknown;
    }
    const body = Object.assign(new Body(), { username: 'read\u0007er' });
    const [error] = await validate(body);
    expect(Object.keys(error.constraints ?? {})).toEqual(['invalidCharacters']);
    await expect(validate(Object.assign(new Body(), { username: 42 }))).resolves.toEqual([]);
  });
});

describe('assignUsernameKeys', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

  it('gives each account its canonical form when there is no clash', () => {
    const keys = assignUsernameKeys([
      { id: 'a', username: 'ada', createdAt: at(1) },
      { id: 'b', username: 'Legacy.User', createdAt: at(2) },
    ]);
    expect(Object.fromEntries(keys)).toEqual({ a: 'ada', b: 'legacy.user' });
  });

  it('keeps the key for the canonically stored account, then the oldest, then the smallest id', () => {
    const keys = assignUsernameKeys([
      { id: 'c', username: '𝐝up', createdAt: at(1) },
      { id: 'b', username: 'dup', createdAt: at(3) },
      { id: 'a', username: 'DUP', createdAt: at(2) },
      { id: 'z', username: 'Twin', createdAt: at(5) },
      { id: 'y', username: 'TWIN', createdAt: at(5) },
      { id: 'x', username: 'ＴＷＩＮ', createdAt: at(4) },
    ]);
    expect(Object.fromEntries(keys)).toEqual({
      b: 'dup',
      a: '#a',
      c: '#c',
      x: 'twin',
      y: '#y',
      z: '#z',
    });
  });

  it('gives an account whose canonical form does not fit an unreachable key', () => {
    const long = '\ufdfa'.repeat(10);
    const keys = assignUsernameKeys([{ id: 'a', username: long, createdAt: at(1) }]);
    expect(keys.get('a')).toBe('#a');
  });
});
