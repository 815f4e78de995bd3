import { hasUnspacedScript } from './search-grams';

/**
 * Text helpers shared by the index implementations: what gets indexed (Markdown reduced to
 * plain words, so snippets don't show `**`, `|` or link targets) and how a snippet is
 * highlighted (HTML-escaped, only our own `<mark>` tags survive).
 */

// Control characters never belong in a page's searchable text; two of them mark hits.
export const HIT_OPEN = '\u0002';
export const HIT_CLOSE = '\u0003';

// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Markdown to the plain words a reader sees (code kept, syntax dropped). Cheap regexes only. */
export function markdownToPlainText(markdown: string): string {
  return markdown
    .replace(CONTROL, ' ')
    .replace(/^[ \t]*(```|~~~).*$/gm, ' ') // code fences (the code itself stays)
    .replace(/^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/gm, ' ') // table rules
    .replace(/^[ \t]*(#{1,6}|>+|[-*+]|\d+[.)])[ \t]+(\[[ xX]\][ \t]+)?/gm, '') // headings, quotes, list marks
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/<(https?:\/\/[^>\s]+)>/g, '$1') // autolinks
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ') // raw HTML tags
    .replace(/\{\{\s*([^}\s]+)\s*\}\}/g, '$1') // {{variables}}
    .replace(/(\*\*|__|~~|`+|\*|\|)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Turns text with HIT_OPEN/HIT_CLOSE markers into escaped HTML with `<mark>` around hits. */
export function markedToHtml(marked: string): string {
  let html = '';
  let open = false;
  // eslint-disable-next-line no-control-regex -- the hit markers are control characters on purpose
  for (const part of marked.split(/([\u0002\u0003])/)) {
    if (part === HIT_OPEN) {
      if (!open) html += '<mark>';
      open = true;
    } else if (part === HIT_CLOSE) {
      if (open) html += '</mark>';
      open = false;
    } else {
      html += escapeHtml(part);
    }
  }
  return open ? `${html}</mark>` : html;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/** Lower case without accents, as both databases compare words (unicode61 remove_diacritics, _ci collations). */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * A snippet of about `size` words around the first hit in `text`, hits highlighted; the start of
 * the text when no word hits (a page found by its title or tags). `words` are folded query words.
 */
export function buildSnippet(
  text: string,
  words: string[],
  prefixLast: boolean,
  size = 24,
): string {
  // Runs of unspaced scripts (`東京`) are found inside longer runs: they mark a substring.
  const runs = words.filter(hasUnspacedScript).map((w) => w.toLowerCase());
  const folded = words.filter((w) => !hasUnspacedScript(w)).map(foldWord);
  const last = folded.length - 1;
  const lastIsWord = words.length > 0 && !hasUnspacedScript(words[words.length - 1]);
  const isWordHit = (token: string): boolean => {
    const f = foldWord(token);
    return folded.some(
      (w, i) => f === w || (prefixLast && lastIsWord && i === last && f.startsWith(w)),
    );
  };
  const tokens = [...text.matchAll(WORD)].map((m) => {
    const lower = m[0].toLowerCase();
    return {
      start: m.index,
      end: m.index + m[0].length,
      hit: isWordHit(m[0]) || runs.some((r) => lower.includes(r)),
    };
  });
  if (tokens.length === 0) return '';
  const first = Math.max(
    0,
    tokens.findIndex((t) => t.hit),
  );
  const from = Math.max(0, Math.min(first - Math.floor(size / 4), tokens.length - size));
  const to = Math.min(tokens.length, from + size);
  let marked = from > 0 ? '…' : '';
  let cursor = tokens[from].start;
  for (let i = from; i < to; i++) {
    const t = tokens[i];
    const token = text.slice(t.start, t.end);
    marked += text.slice(cursor, t.start);
    if (!t.hit) marked += token;
    else if (isWordHit(token)) marked += `${HIT_OPEN}${token}${HIT_CLOSE}`;
    else marked += markRuns(token, runs);
    cursor = t.end;
  }
  marked += to < tokens.length ? '…' : text.slice(cursor);
  return markedToHtml(marked);
}

/** `token` with every occurrence of the runs marked (case-insensitive, same length). */
function markRuns(token: string, runs: string[]): string {
  const lower = token.toLowerCase();
  const hit = new Array<boolean>(token.length).fill(false);
  for (const run of runs) {
    for (let at = lower.indexOf(run); at !== -1; at = lower.indexOf(run, at + 1)) {
      hit.fill(true, at, at + run.length);
    }
  }
  let out = '';
  for (let i = 0; i < token.length; i++) {
    if (hit[i] && (i === 0 || !hit[i - 1])) out += HIT_OPEN;
    out += token[i];
    if (hit[i] && (i === token.length - 1 || !hit[i + 1])) out += HIT_CLOSE;
  }
  return out;
}
