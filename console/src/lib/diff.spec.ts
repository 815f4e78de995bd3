import {
  changeSummary,
  countChanges,
  diffLines,
  foldUnchanged,
  sideBySide,
  splitLines,
} from './diff';

const render = (a: string, b: string) =>
  diffLines(splitLines(a), splitLines(b)).map((o) =>
    o.kind === 'same' ? `  ${o.text}` : o.kind === 'del' ? `- ${o.text}` : `+ ${o.text}`,
  );

describe('line diff', () => {
  it('finds the shortest edit script', () => {
    expect(render('a\nb\nc', 'a\nx\nc')).toEqual(['  a', '- b', '+ x', '  c']);
    expect(render('', 'a\nb')).toEqual(['+ a', '+ b']);
    expect(render('a\nb', '')).toEqual(['- a', '- b']);
    expect(render('a\nb', 'a\nb')).toEqual(['  a', '  b']);
    expect(render('', '')).toEqual([]);
    expect(render('a\nb\nc\nd', 'b\nc\nd\ne')).toEqual(['- a', '  b', '  c', '  d', '+ e']);
  });

  it('numbers lines on both sides and treats CRLF like LF', () => {
    const ops = diffLines(splitLines('x\r\ny\n'), splitLines('x\nz\ny'));
    expect(ops).toEqual([
      { kind: 'same', a: 1, b: 1, text: 'x' },
      { kind: 'add', b: 2, text: 'z' },
      { kind: 'same', a: 2, b: 3, text: 'y' },
    ]);
    expect(countChanges(ops)).toEqual({ added: 1, removed: 0 });
  });

  it('pairs a change side by side', () => {
    const rows = sideBySide(diffLines(['a', 'b', 'c'], ['a', 'B', 'B2', 'c']));
    expect(rows).toEqual([
      {
        left: { line: 1, text: 'a', changed: false },
        right: { line: 1, text: 'a', changed: false },
      },
      { left: { line: 2, text: 'b', changed: true }, right: { line: 2, text: 'B', changed: true } },
      { left: null, right: { line: 3, text: 'B2', changed: true } },
      {
        left: { line: 3, text: 'c', changed: false },
        right: { line: 4, text: 'c', changed: false },
      },
    ]);
  });

  it('handles a long page with a small change', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const b = [...a];
    b[10_000] = 'changed';
    expect(countChanges(diffLines(a, b))).toEqual({ added: 1, removed: 1 });
  });
});

describe('folding unchanged lines', () => {
  const lines = (n: number, prefix = 'l') =>
    Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

  it('keeps three lines of context around each change and folds the rest', () => {
    const a = lines(20);
    const b = [...a];
    b[9] = 'changed';
    const chunks = foldUnchanged(diffLines(a, b));
    expect(chunks.map((c) => [c.kind, c.ops.length])).toEqual([
      ['folded', 6],
      ['shown', 8],
      ['folded', 7],
    ]);
    expect(chunks[1].ops[0]).toEqual({ kind: 'same', a: 7, b: 7, text: 'l7' });
  });

  it('shows a gap of one line instead of folding it, and folds a text without changes whole', () => {
    const a = lines(9);
    const b = [...a];
    b[0] = 'x';
    b[8] = 'y';
    expect(foldUnchanged(diffLines(a, b)).map((c) => c.kind)).toEqual(['shown']);
    expect(foldUnchanged(diffLines(a, a)).map((c) => [c.kind, c.ops.length])).toEqual([
      ['folded', 9],
    ]);
  });

  it('keeps a line it is asked to keep (one with comments) shown, with its context', () => {
    const a = lines(20);
    const b = [...a];
    b[1] = 'changed';
    const kept = foldUnchanged(diffLines(a, b), 1, (op) => op.kind === 'same' && op.b === 15);
    expect(kept.map((c) => [c.kind, c.ops.length])).toEqual([
      ['shown', 4],
      ['folded', 10],
      ['shown', 3],
      ['folded', 4],
    ]);
    expect(kept[2].ops.map((op) => op.text)).toEqual(['l14', 'l15', 'l16']);
  });

  it('counts in words with the right plural', () => {
    expect(changeSummary({ added: 1, removed: 0 })).toBe('1 line added, 0 removed.');
    expect(changeSummary({ added: 2, removed: 1 })).toBe('2 lines added, 1 removed.');
    expect(changeSummary({ added: 0, removed: 0 })).toBe('No differences in the text.');
  });
});
