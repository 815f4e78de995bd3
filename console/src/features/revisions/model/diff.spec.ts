import { countChanges, diffLines, sideBySide, splitLines } from './diff';

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
