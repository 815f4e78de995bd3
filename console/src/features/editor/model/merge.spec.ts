import { hasConflictMarkers, mergeThreeWay } from './merge';

const base = ['# Title', '', 'one', 'two', 'three', 'four', 'five'].join('\n');
const edit = (changes: Record<number, string | null>, extra: string[] = []) =>
  base
    .split('\n')
    .flatMap((line, i) =>
      i in changes ? (changes[i] === null ? [] : [changes[i] as string]) : [line],
    )
    .concat(extra)
    .join('\n');

describe('three-way merge', () => {
  it('takes changes made on one side only, from both sides', () => {
    const mine = edit({ 2: 'ONE' });
    const theirs = edit({ 5: 'FOUR' }, ['six']);
    expect(mergeThreeWay(base, mine, theirs)).toEqual({
      text: ['# Title', '', 'ONE', 'two', 'three', 'FOUR', 'five', 'six'].join('\n'),
      conflicts: 0,
    });
  });

  it('keeps one copy of the same change made on both sides', () => {
    const both = edit({ 3: 'TWO' });
    expect(mergeThreeWay(base, both, both)).toEqual({ text: both, conflicts: 0 });
  });

  it('marks lines both sides changed differently, mine first', () => {
    const result = mergeThreeWay(base, edit({ 3: 'mine two' }), edit({ 3: 'their two', 6: null }));
    expect(result.conflicts).toBe(1);
    expect(result.text).toBe(
      [
        '# Title',
        '',
        'one',
        '<<<<<<< mine',
        'mine two',
        '=======',
        'their two',
        '>>>>>>> theirs',
        'three',
        'four',
      ].join('\n'),
    );
    expect(hasConflictMarkers(result.text)).toBe(true);
  });

  it('merges deletions and insertions', () => {
    const mine = edit({ 2: null });
    const theirs = edit({}, ['appended']);
    expect(mergeThreeWay(base, mine, theirs).text).toBe(
      ['# Title', '', 'two', 'three', 'four', 'five', 'appended'].join('\n'),
    );
  });

  it('works from an empty base', () => {
    expect(mergeThreeWay('', 'a', '')).toEqual({ text: 'a', conflicts: 0 });
    expect(mergeThreeWay('', 'a', 'b').conflicts).toBe(1);
    expect(hasConflictMarkers('plain text')).toBe(false);
  });
});
