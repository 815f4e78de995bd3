import { ApiProperty } from '@nestjs/swagger';
import { listOf } from '../../common/openapi/list-of';

/** One search hit, as search.mapper.ts builds it. */
export class SearchResultItem {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty({
    description: 'HTML: escaped text around the hits, each hit in `<mark>`.',
    example: 'How to <mark>install</mark> kb on a server',
  })
  snippet: string;

  @ApiProperty({ type: [String] })
  tags: string[];

  @ApiProperty({ type: String, format: 'date-time' })
  updatedAt: string;
}

export class SearchResultList extends listOf(SearchResultItem) {}

/** One quick-switcher suggestion. */
export class SuggestionItem {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;
}

/** `GET /api/search/suggest`: a short list, never paged. */
export class SuggestionList {
  @ApiProperty({ type: [SuggestionItem] })
  items: SuggestionItem[];
}
