import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/auth-user';
import { Database } from '../../common/database/database';
import { encodeCursor, Paged, parseListRequest } from '../../common/http/pagination';
import { BadRequestProblem } from '../../common/problems/problem';
import { PAGE_SEARCH_INDEX, PageSearchIndex } from '../store/search/page-search-index';
import { isDatabaseIndex } from '../store/search/page-search-indexes';
import { MAX_OFFSET, searchPages, searchVisiblePages } from '../store/search/search-pages';
import { toViewer } from '../store/visibility-sql';
import { parseSearchQuery } from './search-terms';
import { SearchQueryDto, SuggestQueryDto } from './search-query.dto';
import type { SuggestionList } from './search-response.dto';
import { suggestPages } from '../store/search/suggest-pages';
import { SearchResultItem, toSearchResultItem } from './search.mapper';

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
  ) {}

  async search(query: SearchQueryDto, user: AuthUser): Promise<Paged<SearchResultItem>> {
    const terms = parseSearchQuery(query.q);
    const { limit, cursor } = parseListRequest(query);
    const offset = cursor ? cursorOffset(cursor) : 0;
    if (terms.words.length === 0) return { items: [], nextCursor: null };
    const viewer = toViewer(user);
    const hits = isDatabaseIndex(this.index)
      ? await this.db.read(searchPages, terms, viewer, offset, limit)
      : await searchVisiblePages(this.db.sql(), this.index, terms, viewer, offset, limit);
    return {
      items: hits.pages.map((page) => toSearchResultItem(page, hits.snippets.get(page.id) ?? '')),
      nextCursor: hits.nextOffset === null ? null : encodeCursor({ o: hits.nextOffset }),
    };
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
