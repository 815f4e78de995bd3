import { Injectable } from '@nestjs/common';
import { fieldProblem } from '../../common/problems/problem';
import { SynonymsRepository } from '../store/search/synonyms.repository';
import { SearchTerm, SearchTerms, tokenize } from '../model/search/search-terms';

/** Sets an administrator may keep, terms per set, and characters per term. */
export const MAX_SYNONYM_SETS = 500;
const MAX_SET_SIZE = 20;
const MAX_TERM_LENGTH = 64;
/** How long an instance keeps the sets before reading them again (other instances' edits). */
const CACHE_MS = 5_000;

/**
 * Search synonyms (`GET`/`PUT /api/search/synonyms`, administrators): a query word found in a
 * set also matches every other term of it (`k8s` finds pages saying `kubernetes`). Applied when
 * a query is read, so the index never changes with them.
 */
@Injectable()
export class SearchSynonymsService {
  private cached?: { at: number; byWord: Map<string, string[][]> };

  constructor(private readonly repository: SynonymsRepository) {}

  list(): Promise<string[][]> {
    return this.repository.list();
  }

  async replace(body: unknown): Promise<string[][]> {
    const sets = validateSets(body);
    await this.repository.replace(sets);
    this.cached = undefined;
    return sets;
  }

  /** The terms with each word of a synonym set widened to every term of the set (OR). */
  async expand(terms: SearchTerms): Promise<SearchTerms> {
    const byWord = await this.byWord();
    if (byWord.size === 0) return terms;
    const groups = terms.groups.map((group) => {
      const widened: SearchTerm[] = [...group];
      for (const term of group) {
        if (term.kind !== 'word') continue;
        for (const words of byWord.get(term.text) ?? []) {
          widened.push(
            words.length === 1
              ? { kind: 'word', text: words[0], prefix: false }
              : { kind: 'phrase', words },
          );
        }
      }
      return widened;
    });
    return { ...terms, groups };
  }

  /** Each single-word term of a set → the other terms of its set, as words. */
  private async byWord(): Promise<Map<string, string[][]>> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.byWord;
    const byWord = new Map<string, string[][]>();
    for (const set of await this.repository.list()) {
      const split = set.map((term) => tokenize(term).words);
      for (const [i, words] of split.entries()) {
        if (words.length !== 1) continue;
        const others = split.filter((_, j) => j !== i && split[j].length > 0);
        byWord.set(words[0], [...(byWord.get(words[0]) ?? []), ...others]);
      }
    }
    this.cached = { at: Date.now(), byWord };
    return byWord;
  }
}

/** `[["k8s", "kubernetes"], …]`: at least two distinct terms per set, each term in one set. */
function validateSets(body: unknown): string[][] {
  const problem = (code: string, detail: string) => fieldProblem('synonyms', code, detail);
  if (!Array.isArray(body)) throw problem('invalid', 'The body is an array of sets of terms.');
  if (body.length > MAX_SYNONYM_SETS)
    throw problem('too_many', `At most ${MAX_SYNONYM_SETS} sets.`);
  const seen = new Map<string, number>();
  return body.map((set, index) => {
    if (!Array.isArray(set) || set.length < 2 || set.length > MAX_SET_SIZE) {
      throw problem(
        'invalid',
        `Set ${index} must be an array of 2 to ${MAX_SET_SIZE} terms (strings).`,
      );
    }
    const terms = set.map((term) => {
      if (typeof term !== 'string' || term.trim() === '' || term.length > MAX_TERM_LENGTH) {
        throw problem(
          'invalid',
          `Set ${index}: every term is text of 1 to ${MAX_TERM_LENGTH} characters.`,
        );
      }
      const normal = tokenize(term.normalize('NFKC')).words.join(' ');
      if (normal === '') throw problem('invalid', `Set ${index}: "${term}" holds no word.`);
      const other = seen.get(normal);
      if (other !== undefined && other !== index)
        throw problem('duplicate', `"${normal}" is in sets ${other} and ${index}.`);
      seen.set(normal, index);
      return normal;
    });
    if (new Set(terms).size < 2)
      throw problem('invalid', `Set ${index} needs two different terms.`);
    return [...new Set(terms)];
  });
}
