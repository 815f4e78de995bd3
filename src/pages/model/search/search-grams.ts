/**
 * Search in scripts written without spaces between words (Chinese, Japanese, Korean within a
 * word group, Thai, Lao, Khmer, Myanmar) and, on MySQL/MariaDB, for words shorter than InnoDB's
 * smallest indexed token. Both databases' own tokenizers make a whole run of such characters one
 * word (`東京都の会議`), so `東京` inside it could not be found. kb indexes each run a second time
 * as its overlapping pairs of characters (`東京 京都 都の の会 会議`, what Lucene's CJK analyzer
 * does) in columns of their own, and a query's run becomes the phrase of its pairs: any
 * substring of two or more characters is found, on both databases, with the index they have.
 */

/** Characters of the scripts above (plus the iteration and prolonged-sound marks). */
const UNSPACED_CHAR =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}' +
  '\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u3005\\u30fc';
const UNSPACED_RUN = new RegExp(`[${UNSPACED_CHAR}]+`, 'gu');
const HAS_UNSPACED = new RegExp(`[${UNSPACED_CHAR}]`, 'u');

/** Words as the databases see them: letters and digits with their combining marks. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function hasUnspacedScript(text: string): boolean {
  return HAS_UNSPACED.test(text);
}

/** The runs of unspaced-script characters in `text`, lower-cased as the index folds them. */
export function unspacedRuns(text: string): string[] {
  return [...text.toLowerCase().matchAll(UNSPACED_RUN)].map((m) => m[0]);
}

/**
 * A run's overlapping pairs of characters (grapheme clusters, so a Thai consonant keeps its
 * vowel and tone marks); a run of one character is itself.
 */
export function pairsOf(run: string): string[] {
  const units = /[\p{M}]/u.test(run) ? [...graphemes.segment(run)].map((s) => s.segment) : [...run];
  if (units.length < 2) return units;
  const pairs: string[] = [];
  for (let i = 0; i + 1 < units.length; i++) pairs.push(units[i] + units[i + 1]);
  return pairs;
}

export interface GramOptions {
  /**
   * Pad every token to this many characters with leading `_` (InnoDB indexes no shorter token;
   * `_` is a word character to it) and add the text's short words as tokens too. 0: neither
   * (SQLite's FTS5 indexes words of any length itself).
   */
  minTokenSize: number;
}

/** Pads a gram or short word so InnoDB indexes it; `_` never starts a word of the text. */
export function padToken(token: string, minTokenSize: number): string {
  const missing = minTokenSize - [...token].length;
  return missing > 0 ? '_'.repeat(missing) + token : token;
}

/**
 * The text of a grams column for `text`: every run's pairs in order (so a query's run is a
 * phrase of consecutive pairs), then, with `minTokenSize`, each distinct word shorter than it.
 * Empty for text with neither.
 */
export function gramsOf(text: string, options: GramOptions): string {
  const tokens: string[] = [];
  if (hasUnspacedScript(text)) {
    for (const run of unspacedRuns(text)) tokens.push(...pairsOf(run));
  }
  if (options.minTokenSize > 0) {
    const short = new Set<string>();
    for (const match of text.toLowerCase().matchAll(WORD)) {
      const word = match[0];
      if (!hasUnspacedScript(word) && [...word].length < options.minTokenSize) short.add(word);
    }
    tokens.push(...short);
  }
  return tokens.map((t) => padToken(t, options.minTokenSize)).join(' ');
}
