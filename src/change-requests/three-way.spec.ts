import { mergeThreeWay } from './three-way';

describe('mergeThreeWay', () => {
  const base = ['# Setup', '', 'Install it.', '', 'Run it.', '', 'Done.'].join('\n');

  it('applies edits of both sides that do not overlap', () => {
    const proposed = base.replace('Install it.', 'Install it with npm.');
    const current = base.replace('Done.', 'Done, finally.');
    expect(mergeThreeWay(base, proposed, current)).toEqual({
      merged: base
        .replace('Install it.', 'Install it with npm.')
        .replace('Done.', 'Done, finally.'),
    });
  });

  it('answers overlapping edits as conflicts, with both sides and the base', () => {
    const proposed = base.replace('Run it.', 'Run it twice.');
    const current = base.replace('Run it.', 'Run it once.');
    expect(mergeThreeWay(base, proposed, current)).toEqual({
      conflicts: [{ line: 5, base: 'Run it.', proposed: 'Run it twice.', current: 'Run it once.' }],
    });
  });

  it('takes the only side that changed, and the same edit on both sides once', () => {
    const edited = base.replace('Done.', 'Finished.');
    expect(mergeThreeWay(base, edited, base)).toEqual({ merged: edited });
    expect(mergeThreeWay(base, base, edited)).toEqual({ merged: edited });
    expect(mergeThreeWay(base, edited, edited)).toEqual({ merged: edited });
  });
});
