import {
  buildSnippet,
  HIT_CLOSE,
  HIT_OPEN,
  markdownToPlainText,
  markedToHtml,
} from './search-text';

describe('search text', () => {
  it('reduces Markdown to the words a reader sees', () => {
    const markdown = [
      '# Deploy **guide**',
      '',
      '- [x] step [one](/ops/one) and ![diagram](/api/images/x/content)',
      '> quoted `code`',
      '',
      '| a | b |',
      '|---|:-:|',
      '| 1 | 2 |',
      '```ts',
      'const x = 1;',
      '```',
      'Hello {{customer}} <b>bold</b>',
    ].join('\n');
    expect(markdownToPlainText(markdown)).toBe(
      'Deploy guide step one and diagram quoted code a b 1 2 const x = 1; Hello customer bold',
    );
  });

  it('escapes everything except its own marks', () => {
    expect(markedToHtml(`<script>&${HIT_OPEN}"x"${HIT_CLOSE}`)).toBe(
      '&lt;script&gt;&amp;<mark>&quot;x&quot;</mark>',
    );
  });

  it('cuts a window around the first hit and marks every hit, accents folded, last word as prefix', () => {
    const text =
      Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ') + ' Café <b> deploying cafe';
    const snippet = buildSnippet(text, ['cafe', 'deploy'], true, 10);
    expect(snippet).toBe(
      '…w54 w55 w56 w57 w58 w59 <mark>Café</mark> &lt;b&gt; <mark>deploying</mark> <mark>cafe</mark>',
    );
    expect(buildSnippet('alpha beta gamma', ['zeta'], false, 2)).toBe('alpha beta…');
  });
});
