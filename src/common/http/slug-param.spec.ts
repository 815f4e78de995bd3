import { joinSlugParam } from './slug-param';

describe('joinSlugParam', () => {
  it.each<[string | string[] | undefined, string]>([
    [['a', 'b', 'c'], 'a/b/c'],
    [['a'], 'a'],
    ['a/b', 'a/b'],
    [undefined, ''],
  ])('%j → %j', (raw, slug) => {
    expect(joinSlugParam(raw)).toBe(slug);
  });
});
