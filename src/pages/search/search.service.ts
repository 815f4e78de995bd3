import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthUser } from '../../common/auth/auth-user';
import { encodeCursor, Page, parsePageRequest } from '../../common/http/pagination';
import { BadRequestProblem } from '../../common/problems/problem';
import { PageEntity } from '../entities/page.entity';
import { PageAccessService } from '../page-access.service';
import { PAGE_SEARCH_INDEX, PageSearchIndex } from '../store/search/page-search-index';
import { parseSearchQuery } from './search-terms';
import { SearchQueryDto } from './search-query.dto';
import { SearchResultItem, SearchResultPage, toSearchResultItem } from './search.mapper';

/** Ranked hits read from the index per round, at least. */
const MIN_CHUNK = 50;
/** Hits one request may inspect: a reader who may see few of many hits gets a short page and a cursor. */
const MAX_SCANNED = 2_000;
/** Deepest position a cursor may point at (offsets cost the index more the deeper they go). */
const MAX_OFFSET = 10_000;

/**
 * `GET /api/search`: the index ranks, the pages' one visibility rule filters, a snippet is cut
 * for what is returned. The cursor is a position in the ranked hit list.
 */
@Injectable()
export class SearchService {
  constructor(
    @Inject(PAGE_SEARCH_INDEX) private readonly index: PageSearchIndex,
    @InjectRepository(PageEntity) private readonly pages: Repository<PageEntity>,
    private readonly access: PageAccessService,
  ) {}

  async search(query: SearchQueryDto, user: AuthUser): Promise<Page<SearchResultItem>> {
    const terms = parseSearchQuery(query.q);
    const { limit, cursor } = parsePageRequest(query);
    let offset = cursor ? cursorOffset(cursor) : 0;
    if (terms.words.length === 0) return { items: [], nextCursor: null };

    const found: SearchResultPage[] = [];
    let nextOffset: number | null = null;
    const chunk = Math.max(MIN_CHUNK, limit * 2);
    let scanned = 0;
    while (found.length <= limit) {
      const ids = await this.index.search(terms, offset, chunk);
      const visible = await this.visiblePages(ids, user);
      let position = offset;
      for (const id of ids) {
        position++;
        const page = visible.get(id);
        if (!page) continue;
        if (found.length === limit) {
          // One more visible hit exists: the next page starts at it.
          nextOffset = position - 1;
          break;
        }
        found.push(page);
      }
      if (nextOffset !== null || ids.length < chunk) break;
      offset += ids.length;
      scanned += ids.length;
      if (scanned >= MAX_SCANNED || offset >= MAX_OFFSET) {
        nextOffset = offset < MAX_OFFSET ? offset : null;
        break;
      }
    }
    const snippets = await this.index.snippets(
      terms,
      found.map((p) => p.id),
    );
    return {
      items: found.map((page) => toSearchResultItem(page, snippets.get(page.id) ?? '')),
      nextCursor: nextOffset === null ? null : encodeCursor({ o: nextOffset }),
    };
  }

  private async visiblePages(
    ids: string[],
    user: AuthUser,
  ): Promise<Map<string, SearchResultPage>> {
    if (ids.length === 0) return new Map();
    const query = this.pages
      .createQueryBuilder('p')
      .select(['p.id', 'p.slug', 'p.title', 'p.tags', 'p.updatedAt'])
      .where('p.id IN (:...ids)', { ids });
    const rows = await this.access.visible(query, user).getMany();
    return new Map(rows.map((row) => [row.id, row]));
  }
}

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
