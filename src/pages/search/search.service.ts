import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/auth-user';
import { Database } from '../../common/database/database';
import { encodeCursor, Paged, parseListRequest } from '../../common/http/pagination';
import { BadRequestProblem } from '../../common/problems/problem';
import { PAGE_SEARCH_INDEX, PageSearchIndex } from '../store/search/page-search-index';
import { isDatabaseIndex } from '../store/search/page-search-indexes';
import {
  explainHits,
  MAX_OFFSET,
  searchPages,
  searchVisiblePages,
} from '../store/search/search-pages';
import { toViewer } from '../store/visibility-sql';
import {
  applyFilter,
  emptyTerms,
  hasCriteria,
  parseSearchQuery,
  SearchTerms,
} from '../model/search/search-terms';
import { SearchSynonymsService } from './search-synonyms.service';
import { correctSpelling } from '../store/search/spelling';
import type { ScoreParts } from '../store/search/page-search-index';
import { pageIdsOfSlugs } from '../store/search/search-pages';
import type { SearchFacets, SearchRequestOptions } from '../store/search/search-pages';
import { fieldProblem } from '../../common/problems/problem';
import { SearchQueryDto, SuggestQueryDto } from './search-query.dto';
import type { SuggestionList } from './search-response.dto';
import { suggestPages } from '../store/search/suggest-pages';
import { SearchResultItem, toAttachmentResultItem, toSearchResultItem } from './search.mapper';

/**
 * `GET /api/search`: the index ranks, the pages' one visibility rule filters, a snippet is cut
 * for what is returned (store/search/search-pages.ts). The cursor is a position in the ranked
 * hit list.
 */
@Injectable()
export class SearchService {
  constructor(
    @Inject(PAGE_SEARCH_INDEX) private readonly index: PageSearchIndex,
    private readonly db: Database,
    private readonly synonyms: SearchSynonymsService,
  ) {}

  async search(query: SearchQueryDto, user: AuthUser): Promise<SearchAnswer> {
    const { limit, cursor } = parseListRequest(query);
    const offset = cursor ? cursorOffset(cursor) : 0;
    const request: SearchRequestOptions = {
      sort: parseSort(query.sort),
      facets: parseFacets(query.facets),
    };
    const typed = searchTermsOf(query);
    if (typed.filters.missingLinks && user.role === 'reader') {
      throw fieldProblem('q', 'not_allowed', 'is:missing-links is for editors and administrators.');
    }
    if (!hasCriteria(typed)) return { items: [], nextCursor: null, didYouMean: null };
    const terms = await this.synonyms.expand(typed);
    const viewer = toViewer(user);
    const hits = isDatabaseIndex(this.index)
      ? await this.db.read(searchPages, terms, viewer, offset, limit, request)
      : await searchVisiblePages(this.db.sql(), this.index, terms, viewer, offset, limit, request);
    const answer: SearchAnswer = {
      items: [
        ...hits.pages.map((page) => toSearchResultItem(page, hits.snippets.get(page.id) ?? '')),
        ...hits.attachments.filter((hit) => hit.pages.length > 0).map(toAttachmentResultItem),
      ],
      nextCursor: hits.nextOffset === null ? null : encodeCursor({ o: hits.nextOffset }),
      didYouMean:
        offset === 0 && hits.pages.length + hits.attachments.length < FEW_RESULTS
          ? await this.didYouMean(query, typed)
          : null,
    };
    if (hits.facets) answer.facets = hits.facets;
    return answer;
  }

  /**
   * `GET /api/search/explain` (administrators): the first page of results with each one's
   * score and its parts (title, body, tags, boost), from the database's own index.
   */
  async explain(query: SearchQueryDto, user: AuthUser): Promise<ExplainAnswer> {
    const answer = await this.search({ ...query, facets: undefined, cursor: undefined }, user);
    // Attachment hits have their own index: explain scores the pages.
    const items = answer.items.filter((item) => item.attachment === undefined);
    const terms = await this.synonyms.expand(searchTermsOf(query));
    if (items.length === 0 || terms.groups.length === 0 || !isDatabaseIndex(this.index)) {
      return { items: items.map((item) => ({ slug: item.slug, title: item.title, score: null })) };
    }
    const ids = await this.db.read(
      pageIdsOfSlugs,
      items.map((i) => i.slug),
    );
    const parts = await this.db.read(explainHits, terms, [...ids.values()]);
    return {
      items: items.map((item) => ({
        slug: item.slug,
        title: item.title,
        score: parts.get(ids.get(item.slug) ?? '') ?? null,
      })),
    };
  }

  /**
   * A corrected query when the words typed are not in the index but close ones are: only the
   * query's plain words change (filters, phrases and operators are kept as typed).
   */
  private async didYouMean(query: SearchQueryDto, terms: SearchTerms): Promise<string | null> {
    const plain = terms.groups
      .flat()
      .flatMap((t) => (t.kind === 'word' ? [{ text: t.text, prefix: t.prefix }] : []));
    const q = typeof query.q === 'string' ? query.q.normalize('NFKC').trim() : '';
    if (plain.length === 0 || q === '') return null;
    const corrected = await this.db.read(correctSpelling, plain);
    if (corrected === null) return null;
    let text = q;
    plain.forEach(({ text: word }, i) => {
      if (corrected[i] === word) return;
      text = text.replace(
        new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'iu'),
        corrected[i],
      );
    });
    return text === q ? null : text;
  }

  /**
   * `GET /api/search/suggest`: slug-prefix and title matches of the visible pages, from the
   * database's own index (store/search/suggest-pages.ts), in the read pool.
   */
  async suggest(query: SuggestQueryDto, user: AuthUser): Promise<SuggestionList> {
    const terms = parseSearchQuery(query.q);
    const { limit } = parseListRequest({ limit: query.limit ?? '8' }, MAX_SUGGESTIONS);
    const text = (query.q as string).normalize('NFKC').trim().normalize('NFC');
    const items = await this.db.read(suggestPages, text, terms, toViewer(user), limit);
    return { items };
  }
}

/** With fewer hits than this on the first page, the answer suggests a spelling. */
const FEW_RESULTS = 3;

/** `GET /api/search`'s answer: a page of hits, a spelling suggestion and, when asked, facets. */
export interface SearchAnswer extends Paged<SearchResultItem> {
  didYouMean: string | null;
  facets?: SearchFacets;
}

/** `GET /api/search/explain`: each result with its score parts (null: no text score). */
export interface ExplainAnswer {
  items: { slug: string; title: string; score: ScoreParts | null }[];
}

/** Filter parameters and the query-language filter they stand for. */
const FILTER_PARAMETERS: [keyof SearchQueryDto, string, (value: string) => string][] = [
  ['tag', 'tag', (v) => v],
  ['owner', 'owner', (v) => v],
  ['under', 'under', (v) => v],
  ['lifecycle', 'lifecycle', (v) => v],
  ['verified', 'verified', (v) => v],
  ['lang', 'lang', (v) => v],
  ['updatedAfter', 'updated', (v) => `>=${v}`],
  ['updatedBefore', 'updated', (v) => `<${v}`],
];

/** The query: `q` in the query language, narrowed by the filter parameters. */
function searchTermsOf(query: SearchQueryDto): SearchTerms {
  const given = FILTER_PARAMETERS.filter(([param]) => query[param] !== undefined);
  const terms =
    query.q === undefined && given.length > 0 ? emptyTerms() : parseSearchQuery(query.q);
  for (const [param, filter, value] of given) {
    const raw = query[param];
    if (typeof raw !== 'string')
      throw fieldProblem(param, 'invalid', `${param} must be given once.`);
    applyFilter(terms.filters, filter, value(raw.trim()), param);
  }
  return terms;
}

function parseSort(raw: unknown): SearchRequestOptions['sort'] {
  if (raw === undefined) return 'relevance';
  if (raw === 'relevance' || raw === 'updated') return raw;
  throw fieldProblem('sort', 'invalid', 'sort is relevance or updated.');
}

function parseFacets(raw: unknown): boolean {
  if (raw === undefined) return false;
  const names = typeof raw === 'string' ? raw.split(',').map((n) => n.trim()) : [];
  if (names.length === 0 || names.some((n) => n !== 'tags' && n !== 'folders')) {
    throw fieldProblem('facets', 'invalid', 'facets lists tags and/or folders, comma-separated.');
  }
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Most suggestions one request may ask for. */
const MAX_SUGGESTIONS = 20;

function cursorOffset(cursor: Record<string, unknown>): number {
  const offset = cursor.o;
  if (
    typeof offset !== 'number' ||
    !Number.isInteger(offset) ||
    offset < 0 ||
    offset > MAX_OFFSET
  ) {
    throw new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
  }
  return offset;
}
