import { boundedDistance, contextAt, locate, pageText } from './anchoring';

const anchorIn = (text: string, quote: string) => {
  const start = text.indexOf(quote);
  return { quote, ...contextAt(text, { start, end: start + quote.length }), start };
};

describe('anchoring', () => {
  it('reads the text of rendered HTML as the page view shows it', () => {
    expect(
      pageText(
        '<h1 id="a">Tea &amp; cakes</h1>\n<p>Fresh\n  <strong>scones</strong>&#33; &lt;3&#x21;</p>\n',
      ),
    ).toBe('Tea & cakes Fresh scones! <3!');
  });

  it('measures edit distance within a bound', () => {
    expect(boundedDistance('kitten', 'sitting', 3)).toBe(3);
    expect(boundedDistance('kitten', 'sitting', 2)).toBe(Infinity);
    expect(boundedDistance('same', 'same', 0)).toBe(0);
    expect(boundedDistance('abc', '', 3)).toBe(3);
  });

  it('finds a passage that moved, and picks the occurrence its context names', () => {
    const before = 'Intro. The kettle must boil first. Later: the kettle must boil first again.';
    const target = anchorIn(before, 'the kettle must boil first again');
    const after = 'A new opening paragraph. ' + before;
    const span = locate(after, target)!;
    expect(after.slice(span.start, span.end)).toBe('the kettle must boil first again');

    const repeated = 'x the word y. z the word w.';
    const second = { quote: 'the word', prefix: 'z ', suffix: ' w.', start: 0 };
    expect(locate(repeated, second)).toEqual({ start: 16, end: 24 });
  });

  it('follows a passage edited a little, by its context or approximately', () => {
    const before =
      'Before the passage comes this. Always warm the pot before the tea goes in. After it, this.';
    const target = anchorIn(before, 'Always warm the pot before the tea goes in.');
    const edited = before.replace('warm the pot', 'warm up the pot');
    const span = locate(edited, target)!;
    expect(edited.slice(span.start, span.end)).toBe(
      'Always warm up the pot before the tea goes in.',
    );

    const noContext = { ...target, prefix: '', suffix: '' };
    const moved = 'Entirely new words. Always warm the pots before tea goes in. The end.';
    const fuzzy = locate(moved, noContext)!;
    expect(moved.slice(fuzzy.start, fuzzy.end)).toContain('warm the pots before tea goes in');
  });

  it('answers null when the passage is gone', () => {
    const target = anchorIn('Keep the lid on while it steeps.', 'the lid on while it steeps');
    expect(
      locate('A page about something else entirely, with no such sentence.', target),
    ).toBeNull();
  });

  it('stays bounded on a big page', () => {
    const big = 'lorem ipsum dolor sit amet '.repeat(40_000);
    const started = process.hrtime.bigint();
    locate(big, {
      quote: 'a sentence that is not there at all',
      prefix: '',
      suffix: '',
      start: 500_000,
    });
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(200);
  });
});
