import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../common/auth/auth-user';
import { CurrentUser } from '../../common/auth/route-policy';
import type { Paged } from '../../common/http/pagination';
import { ApiResult } from '../../common/openapi/api-result.decorator';
import { SearchResultList, SuggestionList } from './search-response.dto';
import { SearchQueryDto, SuggestQueryDto } from './search-query.dto';
import type { SearchResultItem } from './search.mapper';
import { SearchService } from './search.service';

@ApiTags('search')
@Controller('api/search')
export class SearchController {
  constructor(private readonly searchService: SearchService) {}

  @Get()
  @ApiOperation({
    summary: 'Search visible pages',
    description:
      'Ranked full-text search over titles, content and tags (title hits first). Every word must match; the last one also matches as a prefix. ' +
      '`snippet` is HTML: escaped text with the hits in `<mark>`. Paged with `limit` (1-100) and `cursor`.',
  })
  @ApiResult(SearchResultList)
  searchPages(
    @Query() query: SearchQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Paged<SearchResultItem>> {
    return this.searchService.search(query, user);
  }

  @Get('suggest')
  @ApiOperation({
    summary: 'Quick-switcher suggestions: visible pages by slug prefix and title words',
    description:
      'Pages whose slug starts with `q`, and pages whose title holds every word of `q` (the last one as a prefix); ' +
      'titles starting with `q` first. At most `limit` (1-20, default 8), never paged.',
  })
  @ApiResult(SuggestionList)
  suggestPages(
    @Query() query: SuggestQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<SuggestionList> {
    return this.searchService.suggest(query, user);
  }
}
