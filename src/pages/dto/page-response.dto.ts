import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { listOf } from '../../common/openapi/list-of';
import { LIFECYCLES, type Lifecycle, type PropertyValue } from '../model/page-columns';

/**
 * The page answers built by pages.mapper.ts, as classes whose decorators are the OpenAPI
 * schemas. The mappers are typed to return these, and @ApiResult checks each handler's return
 * type against them, so code and description change together.
 */

const DATE_TIME = { type: String, format: 'date-time' } as const;
const NULLABLE_STRING = { type: String, nullable: true } as const;
const LIFECYCLE = { enum: LIFECYCLES, enumName: 'Lifecycle' } as const;

/** Scalars only: string, number, boolean or null. */
export const PROPERTIES_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: {
    oneOf: [{ type: 'string', nullable: true }, { type: 'number' }, { type: 'boolean' }],
  },
  description: 'Custom page properties: scalar values (string, number, boolean or null).',
};

export const VARIABLES_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Variables by exact name; `{{name}}` in the Markdown.',
};

export class PageSummaryResponse {
  @ApiProperty({ example: 'guides/getting-started' })
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty(NULLABLE_STRING)
  icon: string | null;

  @ApiProperty({ ...NULLABLE_STRING, description: 'BCP 47 language tag', example: 'en-GB' })
  language: string | null;

  @ApiProperty({ type: [String] })
  tags: string[];

  @ApiProperty(LIFECYCLE)
  lifecycle: Lifecycle;

  @ApiProperty({
    ...NULLABLE_STRING,
    description:
      'Username of the owner (the creator unless another owner was named); null: nobody owns the page.',
  })
  owner: string | null;

  @ApiProperty({ type: [String], description: 'Group names; empty: every signed-in user sees it.' })
  groups: string[];

  @ApiProperty()
  verified: boolean;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Also the ETag (`"3"`).' })
  revision: number;

  @ApiProperty(DATE_TIME)
  updatedAt: string;

  @ApiProperty({ ...NULLABLE_STRING, description: 'Username of the last editor.' })
  updatedBy: string | null;
}

export class PageSummaryList extends listOf(PageSummaryResponse) {}

export class PageLinkResponse {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;
}

export class PageResponse extends PageSummaryResponse {
  @ApiProperty({ description: 'Markdown, `{{variables}}` unresolved.' })
  content: string;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, maximum: 3650 })
  reviewIntervalDays: number | null;

  @ApiProperty({ ...DATE_TIME, nullable: true })
  nextReviewAt: string | null;

  @ApiProperty({ ...NULLABLE_STRING, description: 'Slug of the page that replaces this one.' })
  deprecatedTarget: string | null;

  @ApiProperty(PROPERTIES_SCHEMA)
  properties: Record<string, PropertyValue>;

  @ApiProperty(VARIABLES_SCHEMA)
  variables: Record<string, string>;

  @ApiProperty(DATE_TIME)
  createdAt: string;

  @ApiProperty({ description: 'Rendered HTML (sanitised), variables resolved.' })
  html: string;

  @ApiProperty({ type: [PageLinkResponse], description: 'Visible pages that link here.' })
  backlinks: PageLinkResponse[];
}

export class BinItemResponse {
  @ApiProperty({ format: 'uuid', description: 'Restore and purge address the page by it.' })
  id: string;

  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  revision: number;

  @ApiProperty(DATE_TIME)
  updatedAt: string;

  @ApiProperty(DATE_TIME)
  binnedAt: string;

  @ApiProperty({ ...NULLABLE_STRING, description: 'Username of who binned it.' })
  binnedBy: string | null;
}

export class BinItemList extends listOf(BinItemResponse) {}

export class ReviewDueItemResponse {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ ...NULLABLE_STRING, description: 'Username of the owner; null: nobody owns it.' })
  owner: string | null;

  @ApiProperty({ ...DATE_TIME, description: 'The review date the page has passed.' })
  nextReviewAt: string;
}

export class ReviewDueList extends listOf(ReviewDueItemResponse) {}

export class RevisionSummaryResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  revision: number;

  @ApiProperty()
  title: string;

  @ApiProperty({ description: 'created, updated, restored or imported', example: 'updated' })
  action: string;

  @ApiProperty({
    ...NULLABLE_STRING,
    maxLength: 500,
    description: "The author's change summary (`summary` of the write); null: none given.",
    example: 'Fixed the install steps',
  })
  summary: string | null;

  @ApiProperty({ ...NULLABLE_STRING, description: 'Username of the author.' })
  author: string | null;

  @ApiProperty({
    type: [String],
    description:
      'Usernames of the others who typed in the live editing session this revision ends ' +
      '(docs/collab.md); empty for a revision written alone.',
  })
  coAuthors: string[];

  @ApiProperty(DATE_TIME)
  createdAt: string;
}

export class RevisionSummaryList extends listOf(RevisionSummaryResponse) {}

/** The page metadata a revision recorded beside its title and content. */
export class RevisionMetadataResponse {
  @ApiProperty(NULLABLE_STRING)
  icon: string | null;

  @ApiProperty(NULLABLE_STRING)
  language: string | null;

  @ApiProperty({ type: [String] })
  tags: string[];

  @ApiProperty(LIFECYCLE)
  lifecycle: Lifecycle;

  @ApiProperty({ ...NULLABLE_STRING, description: 'Username of the owner (null when gone).' })
  owner: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  reviewIntervalDays: number | null;

  @ApiProperty({ ...DATE_TIME, nullable: true })
  nextReviewAt: string | null;

  @ApiProperty({ type: [String] })
  groups: string[];

  @ApiProperty(NULLABLE_STRING)
  deprecatedTarget: string | null;

  @ApiProperty(PROPERTIES_SCHEMA)
  properties: Record<string, PropertyValue>;

  @ApiProperty(VARIABLES_SCHEMA)
  variables: Record<string, string>;

  @ApiProperty()
  verified: boolean;
}

export class RevisionResponse extends RevisionSummaryResponse {
  @ApiProperty({ description: 'The slug the page had then.' })
  slug: string;

  @ApiProperty()
  content: string;

  @ApiProperty({ type: RevisionMetadataResponse })
  metadata: RevisionMetadataResponse;
}

export class TagResponse {
  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Visible pages with this tag.' })
  count: number;
}

export class TagList extends listOf(TagResponse) {}

export class GraphNode {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: [String] })
  tags: string[];
}

export class GraphEdge {
  @ApiProperty({ description: 'Slug of the linking page.' })
  from: string;

  @ApiProperty({ description: 'Slug of the linked page.' })
  to: string;
}

export class GraphResponse {
  @ApiProperty({ type: [GraphNode] })
  nodes: GraphNode[];

  @ApiProperty({ type: [GraphEdge] })
  edges: GraphEdge[];
}

export class PreviewResponse {
  @ApiProperty({ description: 'Rendered HTML (sanitised).' })
  html: string;
}

export class SiteVariablesResponse {
  @ApiProperty(VARIABLES_SCHEMA)
  variables: Record<string, string>;
}
