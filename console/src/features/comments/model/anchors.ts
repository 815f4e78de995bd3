/** Every run of whitespace one space, trimmed (as the API compares quotes and page text). */
export function normaliseText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Where an anchor is in the text now: the API's position when the text there still is the
 * quote, else the occurrence of the quote nearest it; null when it is not there.
 */
export function findSpan(
  text: string,
  anchor: { quote: string; start: number; end: number },
): { start: number; end: number } | null {
  if (text.slice(anchor.start, anchor.end) === anchor.quote)
    return { start: anchor.start, end: anchor.end };
  let best: number | null = null;
  for (let at = text.indexOf(anchor.quote); at >= 0; at = text.indexOf(anchor.quote, at + 1)) {
    if (best === null || Math.abs(at - anchor.start) < Math.abs(best - anchor.start)) best = at;
  }
  return best === null ? null : { start: best, end: best + anchor.quote.length };
}
