import { editsOnto } from './three-way';

function apply(text: string, edits: ReturnType<typeof editsOnto>): string {
  for (const e of edits) text = text.slice(0, e.at) + e.insert + text.slice(e.at + e.length);
  return text;
}

describe('editsOnto', () => {
  it('applies a write to an unchanged live text exactly', () => {
    const base = '# Title\n\nOne\nTwo\n';
    const next = '# Title\n\nOne changed\nTwo\nThree\n';
    expect(apply(base, editsOnto(base, next, base))).toBe(next);
  });

  it("keeps an editor's unsaved typing outside the written region", () => {
    const base = 'alpha\nbeta\ngamma\n';
    const live = 'alpha typed\nbeta\ngamma\n';
    const next = 'alpha\nbeta\ngamma from the API\n';
    expect(apply(live, editsOnto(base, next, live))).toBe(
      'alpha typed\nbeta\ngamma from the API\n',
    );
  });

  it('maps positions past insertions and deletions of the live text', () => {
    const base = 'one two three four';
    const live = 'zero one three four';
    const next = 'one two three FOUR';
    expect(apply(live, editsOnto(base, next, live))).toBe('zero one three FOUR');
  });
});
