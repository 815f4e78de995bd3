import { draftEdits, type TextEdit } from './draft-into-live';

function apply(text: string, edits: TextEdit[]): string {
  let out = text;
  for (const e of edits) out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.length);
  return out;
}

describe('an old draft brought into the live text', () => {
  it('keeps what others wrote since the draft started, and adds the draft change', () => {
    const base = 'One\nTwo\nThree\n';
    const draft = 'One\nTwo, from my draft\nThree\n';
    const live = 'Zero\nOne\nTwo\nThree\nFour\n';
    expect(apply(live, draftEdits(base, draft, live))).toBe(
      'Zero\nOne\nTwo, from my draft\nThree\nFour\n',
    );
  });

  it('is the draft itself when nothing changed since it started', () => {
    expect(apply('a b c', draftEdits('a b c', 'a c d', 'a b c'))).toBe('a c d');
  });
});
