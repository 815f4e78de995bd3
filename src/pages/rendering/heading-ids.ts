import GithubSlugger from 'github-slugger';
import type MarkdownIt from 'markdown-it';

type Md = InstanceType<typeof MarkdownIt>;
type CoreRule = Parameters<Md['core']['ruler']['push']>[1];
type Token = ReturnType<Md['parse']>[number];

/** The heading's text as GitHub reads it for the anchor: text and code spans, no markup. */
function headingText(children: Token[] | null): string {
  let text = '';
  for (const child of children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
  }
  return text.trim();
}

/**
 * Heading ids by GitHub's rules (github-slugger): lower-cased, punctuation removed, spaces to
 * `-`; the second `Intro` is `intro-1`, the third `intro-2`. So `page#section` links written
 * for GitHub (and the `#section` links of imported Markdown) land on the heading. A fresh
 * slugger per document: ids never depend on what was rendered before.
 */
const headingIds: CoreRule = (state) => {
  const slugger = new GithubSlugger();
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== 'heading_open') continue;
    const id = slugger.slug(headingText(tokens[i + 1]?.children ?? null));
    if (id !== '') tokens[i].attrSet('id', id);
  }
};

export function headingIdsPlugin(md: Md): void {
  md.core.ruler.push('kb_heading_ids', headingIds);
}
