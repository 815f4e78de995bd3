import { codeFenceTracker } from './code-fences';

function fenced(markdown: string): boolean[] {
  const inFence = codeFenceTracker();
  return markdown.split('\n').map(inFence);
}

describe('codeFenceTracker', () => {
  it('marks the opening fence, the code and the closing fence', () => {
    expect(fenced('a\n```js\ncode\n```\nb')).toEqual([false, true, true, true, false]);
  });

  it('closes only on the same character, at least as long, with nothing else on the line', () => {
    expect(fenced('````\n```\n~~~~\n```` js\n`````\nafter')).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(fenced('~~~\n```\n~~~\nafter')).toEqual([true, true, true, false]);
  });

  it('allows up to three spaces of indentation and runs an unclosed fence to the end', () => {
    expect(fenced('   ```\nx\n   ```\n    ```\ny')).toEqual([true, true, true, false, false]);
    expect(fenced('```\nx\ny')).toEqual([true, true, true]);
  });

  it('does not open on fewer than three characters', () => {
    expect(fenced('``\nx')).toEqual([false, false]);
  });
});
