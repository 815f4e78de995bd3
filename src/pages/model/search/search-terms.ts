import { fieldProblem } from '../../../common/problems/problem';
import { LIFECYCLES } from '../page-columns';
import { hasUnspacedScript, padToken, pairsOf, unspacedRuns } from './search-grams';

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
 * One thing a page must (or must not) contain:
 * - `word`: a word, whole or (the query's last) as a prefix;
 * - `phrase`: words next to each other, in order (`"exact phrase"`);
 * - `run`: a run of unspaced-script characters (`東京`), found anywhere inside a longer run as
 *   the phrase of its character pairs (search-grams.ts).
 */
export type SearchTerm =
  | { kind: 'word'; text: string; prefix: boolean }
  | { kind: 'phrase'; words: string[] }
  | { kind: 'run'; text: string; pairs: string[] };

/** Filters of the query language and the matching query parameters (docs/search.md). */
export interface SearchFilters {
  tags: string[];
  owner?: string;
  under?: string;
  lifecycle?: string;
  verified?: boolean;
  lang?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  missingLinks?: boolean;
}

/**
 * A parsed query. Only words (runs of letters, digits and combining marks) ever reach the
 * database, each quoted by the index's compiler, so nothing a user types becomes database
 * syntax: the operators below are recognised here and compiled from this structure.
 */
export interface SearchTerms {
  /** Every group must match; a group matches when one of its terms does (`a OR b`). */
  groups: SearchTerm[][];
  /** No result contains any of these (`-word`, `-"a phrase"`). */
  excluded: SearchTerm[];
  filters: SearchFilters;
  /** Every positive word, lower-cased, unique, in query order (snippets, highlighting). */
  words: string[];
  /** The last word also matches as a prefix (search-as-you-type: `rollb` finds `rollback`). */
  prefixLast: boolean;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
/** Filters the query language knows: `name:value`. Any other `a:b` is two words. */
const FILTER_NAMES = new Set([
  'tag',
  'owner',
  'under',
  'lifecycle',
  'verified',
  'lang',
  'updated',
  'is',
]);
const LIFECYCLE_NAMES = new Set<string>(LIFECYCLES);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Validates `q` (422 on the field `q`) and parses the query language. */
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

/** A lexical piece of the query: a bare token or a quoted phrase, maybe negated. */
interface Piece {
  text: string;
  quoted: boolean;
  negated: boolean;
  /** `name` of `name:"quoted value"` (the value is `text`). */
  field?: string;
  /** Whether it ends the query (the person may still be typing it). */
  last: boolean;
}

/**
 * Splits on white space, keeping `"quoted phrases"` and `name:"quoted values"` whole (an
 * unclosed quote runs to the end).
 */
function pieces(text: string): Piece[] {
  const found: Piece[] = [];
  const pattern = /(-?)(?:([A-Za-z]+):)?"([^"]*)"?|(\S+)/g;
  for (const m of text.matchAll(pattern)) {
    const last = (m.index ?? 0) + m[0].length === text.length;
    if (m[4] !== undefined) {
      const negated = m[4].startsWith('-') && m[4].length > 1;
      found.push({ text: negated ? m[4].slice(1) : m[4], quoted: false, negated, last });
    } else {
      found.push({ text: m[3], quoted: true, negated: m[1] === '-', field: m[2], last });
    }
  }
  return found;
}

function wordsOf(text: string): string[] {
  return [...text.toLowerCase().matchAll(WORD)].map((m) => m[0]);
}

/**
 * The terms a bare piece of text stands for: each word (a run of unspaced script inside it is
 * a `run` term, the rest ordinary words).
 */
function termsOf(text: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const word of wordsOf(text)) {
    if (!hasUnspacedScript(word)) {
      terms.push({ kind: 'word', text: word, prefix: false });
      continue;
    }
    let rest = word;
    for (const run of unspacedRuns(word)) {
      const at = rest.indexOf(run);
      for (const w of wordsOf(rest.slice(0, at)))
        terms.push({ kind: 'word', text: w, prefix: false });
      terms.push({ kind: 'run', text: run, pairs: pairsOf(run) });
      rest = rest.slice(at + run.length);
    }
    for (const w of wordsOf(rest)) terms.push({ kind: 'word', text: w, prefix: false });
  }
  return terms;
}

function phraseTerm(text: string): SearchTerm[] {
  const terms = termsOf(text);
  if (terms.length > 1 && terms.every((t) => t.kind === 'word')) {
    return [{ kind: 'phrase', words: terms.map((t) => (t as { text: string }).text) }];
  }
  // A phrase holding unspaced script: its parts are required each (their order is not kept).
  return terms;
}

/** A query with nothing asked yet (filter parameters without `q`). */
export function emptyTerms(): SearchTerms {
  return { groups: [], excluded: [], filters: { tags: [] }, words: [], prefixLast: false };
}

/**
 * Adds one filter (`name:value` in the query language, or a query parameter) to `filters`;
 * a bad value is a 422 on `field`.
 */
export function applyFilter(
  filters: SearchFilters,
  name: string,
  value: string,
  field = 'q',
): void {
  const bad = (why: string) => fieldProblem(field, 'invalid_filter', `${name}:${value} — ${why}`);
  if (value === '') throw bad('the filter needs a value.');
  switch (name) {
    case 'tag':
      if (!filters.tags.includes(value)) filters.tags.push(value);
      return;
    case 'owner':
      filters.owner = value;
      return;
    case 'under':
      filters.under = value.replace(/^\/+|\/+$/g, '');
      return;
    case 'lifecycle':
      if (!LIFECYCLE_NAMES.has(value.toLowerCase()))
        throw bad(`lifecycle is one of ${LIFECYCLES.join(', ')}.`);
      filters.lifecycle = value.toLowerCase();
      return;
    case 'verified':
      if (!/^(true|false|yes|no)$/i.test(value)) throw bad('verified is true or false.');
      filters.verified = /^(true|yes)$/i.test(value);
      return;
    case 'lang':
      if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(value))
        throw bad('lang is a language tag such as en or pt-BR.');
      filters.lang = value.toLowerCase();
      return;
    case 'updated': {
      const m = /^([<>]=?)?(.*)$/.exec(value)!;
      const date = m[2];
      if (!ISO_DATE.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
        throw bad('updated takes a date as YYYY-MM-DD, after > or <.');
      const op = m[1] ?? '=';
      if (op.startsWith('>')) filters.updatedAfter = op === '>' ? nextDay(date) : date;
      else if (op.startsWith('<')) filters.updatedBefore = op === '<' ? date : nextDay(date);
      else {
        filters.updatedAfter = date;
        filters.updatedBefore = nextDay(date);
      }
      return;
    }
    case 'is':
      if (value.toLowerCase() !== 'missing-links') throw bad('the only value is missing-links.');
      filters.missingLinks = true;
      return;
  }
}

/** The day after an ISO date (dates compare as the start of their day, UTC). */
function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Parses the query language (docs/search.md) into terms and filters. */
export function tokenize(text: string): SearchTerms {
  const groups: SearchTerm[][] = [];
  const excluded: SearchTerm[] = [];
  const filters: SearchFilters = { tags: [] };
  let pendingOr = false;
  let lastPiece: Piece | undefined;
  let count = 0;
  for (const piece of pieces(text)) {
    if (count >= MAX_TERMS) break;
    if (!piece.quoted && piece.text === 'OR' && !piece.negated) {
      pendingOr = groups.length > 0;
      continue;
    }
    const filter = piece.quoted
      ? piece.field !== undefined
        ? [piece.field, piece.text]
        : null
      : /^([a-z]+):(.*)$/i.exec(piece.text)?.slice(1);
    if (filter && FILTER_NAMES.has(filter[0].toLowerCase()) && !piece.negated) {
      applyFilter(filters, filter[0].toLowerCase(), filter[1]);
      pendingOr = false;
      continue;
    }
    // An unknown `name:"value"` is the name's words and the quoted phrase.
    const terms = piece.quoted
      ? [...termsOf(piece.field ?? ''), ...phraseTerm(piece.text)]
      : termsOf(piece.text);
    if (terms.length === 0) continue;
    count += terms.length;
    if (piece.negated) {
      excluded.push(...terms);
      continue;
    }
    if (pendingOr && terms.length === 1) {
      groups[groups.length - 1].push(terms[0]);
    } else {
      for (const term of terms) groups.push([term]);
    }
    pendingOr = false;
    lastPiece = piece;
  }
  // The last word is what the person is still typing: it matches as a prefix (a trailing `*`,
  // the old way to ask for it, changes nothing). A single letter is matched whole.
  const lastGroup = groups[groups.length - 1];
  const lastTerm = lastGroup?.[lastGroup.length - 1];
  let prefixLast = false;
  if (
    lastTerm?.kind === 'word' &&
    lastPiece?.last &&
    !lastPiece.quoted &&
    [...lastTerm.text].length >= MIN_PREFIX_LENGTH
  ) {
    lastTerm.prefix = true;
    prefixLast = true;
  }
  const words: string[] = [];
  for (const group of groups) {
    for (const term of group) {
      const texts =
        term.kind === 'phrase' ? term.words : term.kind === 'word' ? [term.text] : [term.text];
      for (const w of texts) if (!words.includes(w)) words.push(w);
    }
  }
  return { groups, excluded, filters, words, prefixLast };
}

/** Whether the query asks for anything at all (words or filters). */
export function hasCriteria(terms: SearchTerms): boolean {
  return terms.groups.length > 0 || hasFilters(terms.filters);
}

export function hasFilters(filters: SearchFilters): boolean {
  return (
    filters.tags.length > 0 ||
    Object.entries(filters).some(([key, value]) => key !== 'tags' && value !== undefined)
  );
}

/** FTS5 string literal: a word or phrase, quoted so it is only ever text. */
function fts5String(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Which columns a compiled expression searches: all of them, or titles (suggestions). */
export type MatchScope = 'all' | 'title';

function fts5Term(term: SearchTerm, scope: MatchScope): string {
  const words = scope === 'title' ? '{title}' : '{title body tags}';
  const grams = scope === 'title' ? '{title_grams}' : '{title_grams body_grams}';
  switch (term.kind) {
    case 'word':
      return `${words} : ${fts5String(term.text)}${term.prefix ? '*' : ''}`;
    case 'phrase':
      return `${words} : ${fts5String(term.words.join(' '))}`;
    case 'run':
      // One character: the start of any pair (the grams hold pairs).
      return [...term.text].length === 1
        ? `${grams} : ${fts5String(term.text)}*`
        : `${grams} : ${fts5String(term.pairs.join(' '))}`;
  }
}

/**
 * FTS5 MATCH expression: every group required (AND), alternatives in a group joined by OR,
 * exclusions by NOT. Every word is a quoted string (so `NOT`, `NEAR`, `OR` or a column name in
 * the text is just a word). Null when nothing positive is asked for (FTS5 cannot NOT alone).
 */
export function toFts5Match(terms: SearchTerms, scope: MatchScope = 'all'): string | null {
  if (terms.groups.length === 0) return null;
  const required = terms.groups
    .map((group) => {
      const parts = group.map((term) => `(${fts5Term(term, scope)})`);
      return parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
    })
    .join(' AND ');
  if (terms.excluded.length === 0) return required;
  const excluded = terms.excluded.map((term) => `(${fts5Term(term, 'all')})`).join(' OR ');
  return `(${required}) NOT (${excluded})`;
}

/** A term in InnoDB BOOLEAN MODE syntax (words are letters, digits and marks only). */
function booleanTerm(term: SearchTerm, minTokenSize: number): string {
  const pad = (token: string) => padToken(token, minTokenSize);
  switch (term.kind) {
    case 'word': {
      const short = [...term.text].length < minTokenSize;
      if (!short) return term.prefix ? `${term.text}*` : term.text;
      // A short word is in the grams column, padded; as a prefix it also finds longer words
      // (InnoDB keeps a truncated word however short it is).
      return term.prefix ? `(${pad(term.text)} ${term.text}*)` : pad(term.text);
    }
    case 'phrase':
      return `"${term.words.join(' ')}"`;
    case 'run':
      if ([...term.text].length === 1) {
        // One character: a run of it alone, or the start of any pair (padded as a pair is).
        const pairStart = '_'.repeat(Math.max(0, minTokenSize - 2)) + term.text;
        return `(${pad(term.text)} ${pairStart}*)`;
      }
      return term.pairs.length === 1 ? pad(term.pairs[0]) : `"${term.pairs.map(pad).join(' ')}"`;
  }
}

/**
 * MySQL/MariaDB BOOLEAN MODE expression over the combined FULLTEXT index (title, body, tags
 * and the grams columns): `+term` per group (`+(a b)` for alternatives), `-term` per exclusion.
 * Words shorter than innodb_ft_min_token_size are looked up padded in the grams columns.
 * Returns null when nothing positive is asked for.
 */
export function toBooleanMatch(
  terms: SearchTerms,
  minTokenSize: number,
  mode: 'required' | 'any' = 'required',
): string | null {
  if (terms.groups.length === 0) return null;
  const parts: string[] = [];
  const must = mode === 'required' ? '+' : '';
  for (const group of terms.groups) {
    const alternatives = group.map((t) => booleanTerm(t, minTokenSize));
    parts.push(
      alternatives.length === 1
        ? `${must}${alternatives[0]}`
        : `${must}(${alternatives.join(' ')})`,
    );
  }
  if (mode === 'required') {
    for (const term of terms.excluded) parts.push(`-${booleanTerm(term, minTokenSize)}`);
  }
  return parts.join(' ');
}
