import { fieldProblem } from '../../common/problems/problem';

/** Longest accepted query, in characters after trimming. */
export const MAX_QUERY_LENGTH = 256;
/** Terms beyond this many are ignored: more words only narrow an AND query further. */
export const MAX_TERMS = 16;
/**
 * A last word shorter than this is matched whole. Two characters is where SQLite's prefix
 * index starts (migration SearchPrefixIndex: `prefix='2 3'`), so a 2- or 3-letter prefix reads
 * one precomputed doclist, as a plain word does, instead of merging every word it expands to.
 */
export const MIN_PREFIX_LENGTH = 2;

/**
 * A user query reduced to plain words. Only runs of letters, digits and combining marks
 * survive, so nothing a user types can reach the database's query syntax as an operator:
 * quotes, `*`, `-`, `+`, parentheses, colons, `NEAR`, `AND/OR/NOT` (matched as quoted words)
 * and SQL fragments all become ordinary words or disappear.
 */
export interface SearchTerms {
  /** Lower-cased words, unique, in query order. */
  words: string[];
  /** The last word also matches as a prefix (search-as-you-type: `rollb` finds `rollback`). */
  prefixLast: boolean;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/** Validates `q` (422 on the field `q`) and splits it into words. */
export function parseSearchQuery(raw: unknown): SearchTerms {
  if (raw === undefined || raw === null) throw fieldProblem('q', 'required', 'q is required.');
  if (typeof raw !== 'string') throw fieldProblem('q', 'invalid', 'q must be given once, as text.');
  const text = raw.normalize('NFKC').trim();
  if (text === '') throw fieldProblem('q', 'blank', 'q must contain something to search for.');
  if (text.length > MAX_QUERY_LENGTH) {
    throw fieldProblem('q', 'too_long', `q must be at most ${MAX_QUERY_LENGTH} characters.`);
  }
  return tokenize(text);
}

export function tokenize(text: string): SearchTerms {
  const words: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (!words.includes(word)) words.push(word);
    if (words.length === MAX_TERMS) break;
  }
  // The last word is what the person is still typing: it matches as a prefix (a trailing `*`,
  // the old way to ask for it, changes nothing). A single letter is matched whole.
  const last = words[words.length - 1];
  const prefixLast = last !== undefined && [...last].length >= MIN_PREFIX_LENGTH;
  return { words, prefixLast };
}

/**
 * FTS5 MATCH expression: every word quoted as a string (so `NOT`, `NEAR`, `OR` or a column
 * name is just a word), all required (implicit AND); the last one as a prefix when it ends with `*`.
 */
export function toFts5Match(terms: SearchTerms): string {
  return terms.words
    .map((word, index) => {
      const quoted = `"${word.replace(/"/g, '""')}"`;
      return terms.prefixLast && index === terms.words.length - 1 ? `${quoted}*` : quoted;
    })
    .join(' ');
}

/**
 * MySQL/MariaDB BOOLEAN MODE expression: `+word` for each word the index can hold (InnoDB
 * skips words shorter than innodb_ft_min_token_size), `+word*` for a prefix.
 * Returns null when no word is searchable.
 */
export function toBooleanMatch(terms: SearchTerms, minTokenSize: number): string | null {
  const parts: string[] = [];
  terms.words.forEach((word, index) => {
    if ([...word].length < minTokenSize) return;
    // Words are letters/digits/marks only, so no operator character can appear here.
    parts.push(terms.prefixLast && index === terms.words.length - 1 ? `+${word}*` : `+${word}`);
  });
  return parts.length > 0 ? parts.join(' ') : null;
}
