import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { listOf } from '../../common/openapi/list-of';

/** The attached document an attachment hit is about. */
export class SearchAttachmentRef {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  filename: string;
}

/** A page that uses an attached document. */
export class SearchPageRef {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;
}

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

  @ApiPropertyOptional({
    type: SearchAttachmentRef,
    description:
      'An attachment hit: the document whose text matched. `slug`, `title`, `tags` and `updatedAt` are those of a page using it that the caller may see; `snippet` is cut from the document.',
  })
  attachment?: SearchAttachmentRef;

  @ApiPropertyOptional({
    type: [SearchPageRef],
    description:
      'An attachment hit: the pages using the document that the caller may see (at most 5, by slug).',
  })
  usedOn?: SearchPageRef[];
}

/** A facet value and how many matching pages have it. */
export class FacetCountItem {
  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'integer' })
  count: number;
}

/** Tag and top-level folder counts over the matching pages (the first 2,000 visible matches). */
export class SearchFacetsResponse {
  @ApiProperty({ type: [FacetCountItem] })
  tags: FacetCountItem[];

  @ApiProperty({ type: [FacetCountItem] })
  folders: FacetCountItem[];
}

export class SearchResultList extends listOf(SearchResultItem) {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'When the query finds few pages: the query with its words corrected to close, frequent words of the index; otherwise null.',
  })
  didYouMean: string | null;

  @ApiPropertyOptional({ type: SearchFacetsResponse, description: 'With `facets=`.' })
  facets?: SearchFacetsResponse;
}

/** A result's score and where it came from (`GET /api/search/explain`). */
export class ScorePartsResponse {
  @ApiProperty({ description: 'The score the ranking used (higher is better).' })
  score: number;

  @ApiProperty({ description: 'Relevance of the title (and its grams), weight 10.' })
  title: number;

  @ApiProperty({
    description: 'Relevance of the body (SQLite) or of all fields (MySQL/MariaDB), weight 1.',
  })
  body: number;

  @ApiProperty({ description: 'Relevance of the tags, weight 4.' })
  tags: number;

  @ApiProperty({
    description: 'Boost factor: verified ×1.2, review not due ×1.1, deprecated ×0.5.',
  })
  boost: number;
}

export class ExplainItem {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: ScorePartsResponse, nullable: true })
  score: ScorePartsResponse | null;
}

export class ExplainList {
  @ApiProperty({ type: [ExplainItem] })
  items: ExplainItem[];
}

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
