import { closestWord, editDistance } from './spelling';

describe('spelling', () => {
  it('counts edits, a swap of neighbours as one, and gives up above the limit', () => {
    expect(editDistance('rollback', 'rollback', 2)).toBe(0);
    expect(editDistance('rollbak', 'rollback', 2)).toBe(1);
    expect(editDistance('onbaording', 'onboarding', 2)).toBe(1);
    expect(editDistance('kubernetis', 'kubernetes', 2)).toBe(1);
    expect(editDistance('deplyo', 'deploy', 2)).toBe(1);
    expect(editDistance('abc', 'xyz', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('picks the closest, then most frequent word, and leaves known words and prefixes alone', () => {
    const vocabulary = [
      { term: 'deploy', pages: 40 },
      { term: 'deploys', pages: 3 },
      { term: 'depot', pages: 90 },
      { term: 'rollback', pages: 7 },
    ];
    expect(closestWord('deplyo', vocabulary)).toBe('deploy');
    expect(closestWord('deploy', vocabulary)).toBeNull();
    expect(closestWord('rollbak', vocabulary)).toBe('rollback');
    // Typed as a prefix: a word starting with it exists, nothing to correct.
    expect(closestWord('rollb', vocabulary, true)).toBeNull();
    // Three letters or fewer are never corrected.
    expect(closestWord('dep', vocabulary)).toBeNull();
    expect(closestWord('zzzzzz', vocabulary)).toBeNull();
  });
});
