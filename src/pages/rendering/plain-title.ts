import MarkdownIt from 'markdown-it';

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parseInline']>[number];

/** Inline parsing only: configuration, no state kept between calls. */
const inline = new MarkdownIt({ html: true, linkify: false, typographer: false });

function textOf(tokens: Token[] | null): string {
  let text = '';
  for (const token of tokens ?? []) {
    if (token.type === 'text' || token.type === 'code_inline') text += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += ' ';
    else if (token.type !== 'image' && token.children) text += textOf(token.children);
    // Images (badges, icons) and raw HTML tags are not part of a title.
  }
  return text;
}

/**
 * A title written in Markdown, as plain text: escapes undone (`Hello world\!` → `Hello
 * world!`), links reduced to their text, images and HTML tags dropped, entities decoded.
 */
export function plainTitle(markdown: string): string {
  return textOf(inline.parseInline(markdown, {})).replace(/\s+/g, ' ').trim();
}

/**
 * A plain-text title as Markdown that plainTitle reads back unchanged: written as it is when
 * it holds nothing Markdown would interpret, else with every ASCII punctuation mark escaped.
 */
export function markdownTitle(title: string): string {
  const flat = title.replace(/\s+/g, ' ').trim();
  if (plainTitle(flat) === flat && !/#\s*$/.test(flat)) return flat;
  return flat.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}
