/**
 * Where an inline thread's passage is in a page (pure functions, no Nest).
 *
 * Offsets are into the page's *text*: its rendered HTML without tags, entities decoded, every run
 * of whitespace one space, trimmed — what the console gets from the page view's `textContent`
 * normalised the same way (console/src/lib/page-text.ts), so a selection made there and an anchor
 * found here name the same characters.
 *
 * A passage is found again after an edit in three steps, each bounded so a big page costs a few
 * milliseconds per thread (and the caller yields between threads):
 * 1. the quote itself, exactly: of its occurrences (at most MAX_OCCURRENCES) the one whose
 *    surroundings best match the stored prefix and suffix, nearest the last position on a tie;
 * 2. the stored prefix and suffix, exactly, with text between them close to the quote (the
 *    passage itself was edited a little);
 * 3. an approximate match of the quote (edit distance at most a quarter of its length, Sellers'
 *    algorithm) within FUZZY_WINDOW characters of its last position, for quotes of at most
 *    FUZZY_MAX_QUOTE characters.
 * When none finds it the passage is gone: the thread is outdated and keeps its quote.
 */

/** Characters of context kept either side of a quote. */
export const CONTEXT_LENGTH = 64;
/** The longest quote an inline thread may have. */
export const MAX_QUOTE_LENGTH = 1000;
const MAX_OCCURRENCES = 1000;
const FUZZY_WINDOW = 2000;
const FUZZY_MAX_QUOTE = 256;
const MAX_CONTEXT_GAP = 2 * MAX_QUOTE_LENGTH;

export interface AnchorTarget {
  quote: string;
  prefix: string;
  suffix: string;
  /** Where the quote was last (a hint); 0 when unknown. */
  start: number;
}

export interface Span {
  start: number;
  end: number;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntity(entity: string, name: string): string {
  if (name.startsWith('#x') || name.startsWith('#X')) {
    const code = Number.parseInt(name.slice(2), 16);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  }
  if (name.startsWith('#')) {
    const code = Number.parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  }
  return ENTITIES[name] ?? entity;
}

/** Every run of whitespace one space, trimmed (the form quotes and page text are compared in). */
export function normaliseText(text: string): string {
  return collapseSpaces(text).trim();
}

/** Every run of whitespace one space (context keeps its edges). */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/**
 * The text of a page's rendered (sanitised) HTML: tags dropped, entities decoded, whitespace
 * normalised. The sanitiser's output has no comments, scripts or attributes holding `>`
 * unescaped, so dropping `<...>` is exact.
 */
export function pageText(html: string): string {
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#[xX][0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (entity, name: string) =>
      decodeEntity(entity, name),
    );
  return normaliseText(text);
}

function commonSuffixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

function commonPrefixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/** How well the text around `span` matches the stored context (characters in common). */
function contextScore(text: string, span: Span, target: AnchorTarget): number {
  const before = text.slice(Math.max(0, span.start - CONTEXT_LENGTH), span.start).trimEnd();
  const after = text.slice(span.end, span.end + CONTEXT_LENGTH).trimStart();
  return (
    commonSuffixLength(target.prefix.trimEnd(), before) +
    commonPrefixLength(target.suffix.trimStart(), after)
  );
}

function exactMatch(text: string, target: AnchorTarget): Span | null {
  let best: Span | null = null;
  let bestScore = -Infinity;
  let from = 0;
  for (let n = 0; n < MAX_OCCURRENCES; n++) {
    const start = text.indexOf(target.quote, from);
    if (start < 0) break;
    const span = { start, end: start + target.quote.length };
    // Context first; the distance from the last position only breaks ties.
    const score =
      contextScore(text, span, target) - Math.abs(start - target.start) / (text.length + 1);
    if (score > bestScore) {
      bestScore = score;
      best = span;
    }
    from = start + 1;
  }
  return best;
}

/**
 * Edit distance between `a` and `b`, or Infinity once it must exceed `limit` (the band keeps
 * the work at length × (2 × limit + 1)).
 */
export function boundedDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return Infinity;
  const cap = limit + 1;
  let previous = new Array<number>(b.length + 2).fill(cap);
  let current = new Array<number>(b.length + 2).fill(cap);
  for (let j = 0; j <= Math.min(b.length, limit); j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const low = Math.max(1, i - limit);
    const high = Math.min(b.length, i + limit);
    current[low - 1] = low === 1 && i <= limit ? i : cap;
    let rowMin = current[low - 1];
    for (let j = low; j <= high; j++) {
      const value = Math.min(
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
        previous[j] + 1,
        current[j - 1] + 1,
        cap,
      );
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    current[high + 1] = cap;
    if (rowMin > limit) return Infinity;
    [previous, current] = [current, previous];
  }
  return previous[b.length] <= limit ? previous[b.length] : Infinity;
}

function allowedErrors(quote: string): number {
  return Math.floor(quote.length / 4);
}

/** The passage between an exact prefix and suffix, if it is close to the quote. */
function contextMatch(text: string, target: AnchorTarget): Span | null {
  const prefix = target.prefix.trimEnd();
  const suffix = target.suffix.trimStart();
  if (prefix.length < 8 || suffix.length < 8) return null;
  let best: Span | null = null;
  let bestDistance = Infinity;
  let from = 0;
  for (let n = 0; n < 100; n++) {
    const at = text.indexOf(prefix, from);
    if (at < 0) break;
    from = at + 1;
    const after = at + prefix.length;
    const end = text.indexOf(suffix, after);
    if (end < 0 || end - after > MAX_CONTEXT_GAP) continue;
    const start = text[after] === ' ' ? after + 1 : after;
    const stop = end > start && text[end - 1] === ' ' ? end - 1 : end;
    if (stop <= start) continue;
    const distance = boundedDistance(
      text.slice(start, stop),
      target.quote,
      allowedErrors(target.quote),
    );
    if (distance < bestDistance) {
      bestDistance = distance;
      best = { start, end: stop };
    }
  }
  return best;
}

/**
 * Sellers' algorithm: the substring of `text[from, to)` with the least edit distance to
 * `pattern`, if it is at most `limit`; each cell carries where its alignment started.
 */
function approximateMatch(
  text: string,
  pattern: string,
  from: number,
  to: number,
  limit: number,
): Span | null {
  const m = pattern.length;
  let cost = new Array<number>(m + 1);
  let origin = new Array<number>(m + 1);
  let nextCost = new Array<number>(m + 1);
  let nextOrigin = new Array<number>(m + 1);
  for (let i = 0; i <= m; i++) {
    cost[i] = i;
    origin[i] = from;
  }
  let best: Span | null = null;
  let bestCost = limit + 1;
  for (let j = from; j < to; j++) {
    nextCost[0] = 0;
    nextOrigin[0] = j + 1;
    const c = text[j];
    for (let i = 1; i <= m; i++) {
      let value = cost[i - 1] + (pattern[i - 1] === c ? 0 : 1);
      let start = origin[i - 1];
      if (cost[i] + 1 < value) {
        value = cost[i] + 1;
        start = origin[i];
      }
      if (nextCost[i - 1] + 1 < value) {
        value = nextCost[i - 1] + 1;
        start = nextOrigin[i - 1];
      }
      nextCost[i] = value;
      nextOrigin[i] = start;
    }
    if (nextCost[m] < bestCost) {
      bestCost = nextCost[m];
      best = { start: nextOrigin[m], end: j + 1 };
    }
    [cost, nextCost] = [nextCost, cost];
    [origin, nextOrigin] = [nextOrigin, origin];
  }
  return best;
}

function fuzzyMatch(text: string, target: AnchorTarget): Span | null {
  const quote = target.quote;
  if (quote.length < 4 || quote.length > FUZZY_MAX_QUOTE) return null;
  const hint = Math.min(Math.max(0, target.start), text.length);
  const from = Math.max(0, hint - FUZZY_WINDOW);
  const to = Math.min(text.length, hint + quote.length + FUZZY_WINDOW);
  const span = approximateMatch(text, quote, from, to, allowedErrors(quote));
  if (!span) return null;
  // Trim the spaces an alignment may have taken in at its edges.
  while (span.start < span.end && text[span.start] === ' ') span.start++;
  while (span.end > span.start && text[span.end - 1] === ' ') span.end--;
  return span.end > span.start ? span : null;
}

/** Where the passage is in `text` now, or null when it is gone. */
export function locate(text: string, target: AnchorTarget): Span | null {
  if (target.quote === '') return null;
  return exactMatch(text, target) ?? contextMatch(text, target) ?? fuzzyMatch(text, target);
}

/** The context to store with a new anchor at `span`. */
export function contextAt(text: string, span: Span): { prefix: string; suffix: string } {
  return {
    prefix: text.slice(Math.max(0, span.start - CONTEXT_LENGTH), span.start),
    suffix: text.slice(span.end, span.end + CONTEXT_LENGTH),
  };
}
