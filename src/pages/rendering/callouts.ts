import type MarkdownIt from 'markdown-it';

type Md = InstanceType<typeof MarkdownIt>;
type CoreRule = Parameters<Md['core']['ruler']['push']>[1];
type Token = ReturnType<Md['parse']>[number];

/**
 * GitHub / DocFX alerts as callouts: a blockquote whose first line is `[!NOTE]`, `[!TIP]`,
 * `[!IMPORTANT]`, `[!WARNING]` or `[!CAUTION]` (any case; text after the marker is the title)
 * renders as GitHub renders it:
 *
 *   <div class="markdown-alert markdown-alert-note"><p class="markdown-alert-title">Note</p>…</div>
 *
 * Obsidian's usual aliases map onto the five kinds, and GitHub's first syntax (`> **Note**`
 * alone on the first line) is read too. Other blockquotes stay blockquotes.
 */
export const CALLOUT_KINDS = ['note', 'tip', 'important', 'warning', 'caution'] as const;
export type CalloutKind = (typeof CALLOUT_KINDS)[number];

const ALIASES: Record<string, CalloutKind> = {
  note: 'note',
  info: 'note',
  abstract: 'note',
  summary: 'note',
  tip: 'tip',
  hint: 'tip',
  success: 'tip',
  important: 'important',
  warning: 'warning',
  attention: 'warning',
  caution: 'caution',
  danger: 'caution',
  error: 'caution',
};

const TITLES: Record<CalloutKind, string> = {
  note: 'Note',
  tip: 'Tip',
  important: 'Important',
  warning: 'Warning',
  caution: 'Caution',
};

/** The CSS classes a callout carries (the sanitiser allows exactly these). */
export const CALLOUT_CLASSES = [
  'markdown-alert',
  ...CALLOUT_KINDS.map((kind) => `markdown-alert-${kind}`),
];
export const CALLOUT_TITLE_CLASS = 'markdown-alert-title';

const MARKER = /^\[!([A-Za-z]+)\][ \t]*([^\n]*)(?:\n|$)/;
const LEGACY = /^\*\*(Note|Warning)\*\*:?[ \t]*(?:\n|$)/;

/** The callout a blockquote's first paragraph announces, with the marker line removed. */
export function readCalloutMarker(
  content: string,
): { kind: CalloutKind; title: string; rest: string } | undefined {
  const marker = MARKER.exec(content);
  if (marker) {
    const kind = ALIASES[marker[1].toLowerCase()];
    if (!kind) return undefined;
    return {
      kind,
      title: marker[2].trim() || TITLES[kind],
      rest: content.slice(marker[0].length),
    };
  }
  const legacy = LEGACY.exec(content);
  if (legacy) {
    const kind = ALIASES[legacy[1].toLowerCase()];
    return { kind, title: TITLES[kind], rest: content.slice(legacy[0].length) };
  }
  return undefined;
}

/** Runs between block and inline parsing, so the title and the rest are parsed as inline text. */
const callouts: CoreRule = (state) => {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i];
    if (open.type !== 'blockquote_open') continue;
    const paragraph = tokens[i + 1];
    const inline = tokens[i + 2];
    if (paragraph?.type !== 'paragraph_open' || inline?.type !== 'inline') continue;
    const marker = readCalloutMarker(inline.content);
    if (!marker) continue;
    const close = findClose(tokens, i);
    if (close < 0) continue;
    // Same token types (nesting still counts), rendered as a <div> with the callout classes.
    open.tag = 'div';
    open.attrs = [['class', `markdown-alert markdown-alert-${marker.kind}`]];
    tokens[close].tag = 'div';

    const titleOpen = new state.Token('paragraph_open', 'p', 1);
    titleOpen.attrs = [['class', CALLOUT_TITLE_CLASS]];
    titleOpen.block = true;
    const title = new state.Token('inline', '', 0);
    title.content = marker.title;
    title.children = [];
    const titleClose = new state.Token('paragraph_close', 'p', -1);
    titleClose.block = true;

    if (marker.rest.trim() === '') {
      // The marker was the whole paragraph: the title paragraph takes its place.
      tokens.splice(i + 1, 3, titleOpen, title, titleClose);
    } else {
      inline.content = marker.rest;
      tokens.splice(i + 1, 0, titleOpen, title, titleClose);
    }
  }
};

function findClose(tokens: Token[], openIndex: number): number {
  let depth = 0;
  for (let j = openIndex; j < tokens.length; j++) {
    if (tokens[j].type === 'blockquote_open') depth++;
    else if (tokens[j].type === 'blockquote_close' && --depth === 0) return j;
  }
  return -1;
}

export function calloutsPlugin(md: Md): void {
  md.core.ruler.after('block', 'kb_callouts', callouts);
}
