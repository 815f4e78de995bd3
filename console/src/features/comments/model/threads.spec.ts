import { findSpan, normaliseText } from './anchors';
import { mentionAt } from './threads';

describe('comments model', () => {
  it('finds the @name being typed', () => {
    expect(mentionAt('Hi @ali', 7)).toEqual({ query: 'ali', at: 3 });
    expect(mentionAt('@', 1)).toEqual({ query: '', at: 0 });
    expect(mentionAt('mail me@exa', 11)).toBeNull();
    expect(mentionAt('Hi @alice done', 14)).toBeNull();
  });

  it('finds an anchor where the API says, else the nearest occurrence', () => {
    const text = normaliseText('one  two\n one two');
    expect(text).toBe('one two one two');
    expect(findSpan(text, { quote: 'one two', start: 8, end: 15 })).toEqual({ start: 8, end: 15 });
    expect(findSpan(text, { quote: 'one two', start: 7, end: 14 })).toEqual({ start: 8, end: 15 });
    expect(findSpan(text, { quote: 'three', start: 0, end: 5 })).toBeNull();
  });
});
