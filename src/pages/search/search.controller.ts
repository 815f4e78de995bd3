import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../common/auth/auth-user';
import { AdminOnly, CurrentUser } from '../../common/auth/route-policy';
import { ApiResult, ApiSchemaResult } from '../../common/openapi/api-result.decorator';
import { ExplainList, SearchResultList, SuggestionList } from './search-response.dto';
import { SearchQueryDto, SuggestQueryDto } from './search-query.dto';
import { SearchAnswer, SearchService } from './search.service';
import { SearchSynonymsService } from './search-synonyms.service';

/** Synonym sets: `[["k8s", "kubernetes"], …]`, at most 500 sets of 2-20 terms. */
const SYNONYM_SETS = {
  type: 'array' as const,
  maxItems: 500,
  items: {
    type: 'array' as const,
    minItems: 2,
    maxItems: 20,
    items: { type: 'string' as const, minLength: 1, maxLength: 64 },
  },
  example: [
    ['k8s', 'kubernetes'],
    ['db', 'database'],
  ],
};

@ApiTags('search')
@Controller('api/search')
export class SearchController {
  constructor(
    private readonly searchService: SearchService,
    private readonly synonyms: SearchSynonymsService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Search visible pages',
    description:
      'Ranked full-text search over titles, content and tags (title hits first), in every language. `q` takes the query language ' +
      '(docs/search.md): words (all must match; the last one also as a prefix), `"phrases"`, `-word`, `OR`, and filters. ' +
      '`snippet` is HTML: escaped text with the hits in `<mark>`. Paged with `limit` (1-100) and `cursor`. ' +
      '`didYouMean` suggests a corrected query when few pages match; `facets=tags,folders` adds counts.',
  })
  @ApiResult(SearchResultList)
  searchPages(
    @Query() query: SearchQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<SearchAnswer> {
    return this.searchService.search(query, user);
  }

  @Get('explain')
  @AdminOnly()
  @ApiOperation({
    summary: 'The first page of search results with each score and its parts (admin)',
  })
  @ApiResult(ExplainList)
  explain(@Query() query: SearchQueryDto, @CurrentUser() user: AuthUser): Promise<ExplainList> {
    return this.searchService.explain(query, user);
  }

  @Get('synonyms')
  @AdminOnly()
  @ApiOperation({ summary: 'Search synonyms: sets of terms that find each other (admin)' })
  @ApiSchemaResult(SYNONYM_SETS)
  listSynonyms(): Promise<string[][]> {
    return this.synonyms.list();
  }

  @Put('synonyms')
  @AdminOnly()
  @ApiOperation({
    summary:
      'Replace the search synonyms, e.g. [["k8s", "kubernetes"], ["db", "database"]] (admin)',
  })
  @ApiBody({ schema: SYNONYM_SETS })
  @ApiSchemaResult(SYNONYM_SETS)
  replaceSynonyms(@Body() body: unknown): Promise<string[][]> {
    return this.synonyms.replace(body);
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
