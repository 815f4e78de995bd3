import { readQuery, Sql } from '../../../common/database/sql';
import { foldWord } from '../../model/search/search-text';

/** Words of the index read per misspelt word (those sharing its first letter), at most. */
const CANDIDATES = 20_000;
/** Titles and tags read per statement while MySQL's vocabulary is built. */
const VOCABULARY_BATCH = 2_000;
/** How long MySQL's vocabulary of titles and tags is kept before it is read again. */
const VOCABULARY_TTL_MS = 60_000;

export interface VocabularyWord {
  term: string;
  /** Pages holding it: the more, the likelier the intended word. */
  pages: number;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment), giving up above
 * `max`: the corrections "Did you mean" offers are 1-2 edits away.
 */
export function editDistance(a: string, b: string, max: number): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        d = Math.min(d, previous2[j - 2] + 1);
      }
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[y.length];
}

/** Edits allowed for a word of this length: one for short words, two from six letters. */
function allowedEdits(word: string): number {
  const length = [...word].length;
  return length < 4 ? 0 : length < 6 ? 1 : 2;
}

/** The closest, most frequent vocabulary word within the allowed edits, or null. */
export function closestWord(
  word: string,
  vocabulary: Iterable<VocabularyWord>,
  prefix = false,
): string | null {
  const max = allowedEdits(word);
  if (max === 0) return null;
  let best: { term: string; distance: number; pages: number } | null = null;
  for (const candidate of vocabulary) {
    // The word is known (or, typed as a prefix, starts a known word): nothing to correct.
    if (candidate.term === word || (prefix && candidate.term.startsWith(word))) return null;
    const distance = editDistance(word, candidate.term, max);
    if (distance > max) continue;
    if (
      !best ||
      distance < best.distance ||
      (distance === best.distance && candidate.pages > best.pages)
    ) {
      best = { term: candidate.term, distance, pages: candidate.pages };
    }
  }
  return best?.term ?? null;
}

/** SQLite: the index's own vocabulary (fts5vocab over page_search), words sharing the first letter. */
async function sqliteVocabulary(sql: Sql, word: string): Promise<VocabularyWord[]> {
  const first = [...word][0];
  const next = String.fromCodePoint(first.codePointAt(0)! + 1);
  return sql.all<VocabularyWord>(
    'SELECT term, doc AS pages FROM page_search_vocab WHERE term >= ? AND term < ? LIMIT ?',
    [first, next, CANDIDATES],
  );
}

/** MySQL/MariaDB: the words of live titles and tags, read in batches and kept a minute. */
let mysqlVocabulary: { at: number; words: Map<string, number> } | undefined;

async function titleVocabulary(sql: Sql): Promise<Map<string, number>> {
  if (mysqlVocabulary && Date.now() - mysqlVocabulary.at < VOCABULARY_TTL_MS) {
    return mysqlVocabulary.words;
  }
  const words = new Map<string, number>();
  let after = '';
  for (;;) {
    const rows = await sql.all<{ id: string; title: string; tags: string }>(
      'SELECT s.page_id AS id, s.title, s.tags FROM page_search s WHERE s.page_id > ? ' +
        'ORDER BY s.page_id LIMIT ?',
      [after, VOCABULARY_BATCH],
    );
    for (const row of rows) {
      const seen = new Set(foldedWords(`${row.title} ${row.tags}`));
      for (const w of seen) words.set(w, (words.get(w) ?? 0) + 1);
    }
    if (rows.length < VOCABULARY_BATCH) break;
    after = rows[rows.length - 1].id;
    // Let other requests run between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
  mysqlVocabulary = { at: Date.now(), words };
  return words;
}

function foldedWords(text: string): string[] {
  return [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu)].map((m) => foldWord(m[0]));
}

/**
 * "Did you mean": each word corrected to the closest frequent word of the index's vocabulary
 * (SQLite: every indexed word; MySQL/MariaDB: the words of titles and tags), or kept. Null
 * when no word changes.
 */
export const correctSpelling = readQuery(
  'correctSpelling',
  async (sql: Sql, words: { text: string; prefix: boolean }[]): Promise<string[] | null> => {
    let changed = false;
    const corrected: string[] = [];
    const mysqlWords = sql.dialect.name === 'mysql' ? await titleVocabulary(sql) : undefined;
    for (const { text: word, prefix } of words) {
      const folded = foldWord(word);
      const first = [...folded][0];
      const vocabulary = mysqlWords
        ? [...mysqlWords]
            .filter(([term]) => term.startsWith(first))
            .map(([term, pages]) => ({ term, pages }))
        : await sqliteVocabulary(sql, folded);
      const better = /^[\p{L}\p{M}]+$/u.test(folded)
        ? closestWord(folded, vocabulary, prefix)
        : null;
      corrected.push(better ?? word);
      if (better) changed = true;
    }
    return changed ? corrected : null;
  },
  { lagTolerant: true },
);
