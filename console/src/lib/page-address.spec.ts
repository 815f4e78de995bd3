import { searchWordsOf, slugOfAddress } from './page-address';

describe('slugOfAddress', () => {
  it.each([
    ['/handbook/index', 'handbook/index'],
    ['/Handbook/Index/', 'handbook/index'],
    ['/team/%C3%BCber-uns', 'team/über-uns'],
    ['/team/u%CC%88ber-uns', 'team/über-uns'],
    ['/drafts', 'drafts'],
  ])('%s could be the page %s', (path, slug) => expect(slugOfAddress(path)).toBe(slug));

  it.each(['/', '/a//b', '/a/raw', '/a%20b', '/a/../b', '/%E0%A4%A', `/${'a/'.repeat(21)}`])(
    '%s could not',
    (path) => expect(slugOfAddress(path)).toBeNull(),
  );
});

describe('searchWordsOf', () => {
  it('takes the last segment with its dashes as spaces', () => {
    expect(searchWordsOf('guides/release-train_notes')).toBe('release train notes');
  });
});
