import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { UserRefResponse } from '../../auth/public-api';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { listOf } from '../../common/openapi/list-of';
import { CONTEXT_LENGTH, MAX_QUOTE_LENGTH } from '../anchoring';

/** The longest comment body, in characters. */
export const MAX_COMMENT_LENGTH = 10_000;

export const COMMENT_STATES = ['open', 'resolved', 'all'] as const;

export class CommentListQueryDto extends ListQueryDto {
  @ApiProperty({ description: 'The page (any slug, slashes included).' })
  @IsOptional()
  @IsString()
  slug?: string;

  @ApiPropertyOptional({
    enum: COMMENT_STATES,
    description: 'Which threads: open (default), resolved or all.',
  })
  @IsOptional()
  @IsIn(COMMENT_STATES)
  state?: (typeof COMMENT_STATES)[number];
}

export class MentionQueryDto {
  @ApiProperty({ description: 'The page the comment is on.' })
  @IsString()
  slug: string;

  @ApiPropertyOptional({ description: 'The start of a username or display name.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  q?: string;
}

/** A passage of the page: the quote as selected, with context, in the page's text. */
export class CommentAnchorDto {
  @ApiProperty({
    description: `The selected text of the rendered page (whitespace runs count as one space), 1-${MAX_QUOTE_LENGTH} characters.`,
  })
  @IsString()
  quote: string;

  @ApiPropertyOptional({ description: `Up to ${CONTEXT_LENGTH} characters before the quote.` })
  @IsOptional()
  @IsString()
  @MaxLength(CONTEXT_LENGTH * 4)
  prefix?: string;

  @ApiPropertyOptional({ description: `Up to ${CONTEXT_LENGTH} characters after the quote.` })
  @IsOptional()
  @IsString()
  @MaxLength(CONTEXT_LENGTH * 4)
  suffix?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      "Where the quote starts in the page's text (a hint; past the end: 422 `anchor_out_of_range`).",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  start?: number;
}

export class CreateCommentDto {
  @ApiProperty({ description: 'The page to comment on.' })
  @IsString()
  slug: string;

  @ApiProperty({
    description: `Markdown, at most ${MAX_COMMENT_LENGTH} characters; \`@username\` mentions the person.`,
  })
  @IsString()
  body: string;

  @ApiPropertyOptional({
    type: CommentAnchorDto,
    description: 'Makes the thread inline: anchored to this passage. Not on a reply.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => CommentAnchorDto)
  anchor?: CommentAnchorDto;

  @ApiPropertyOptional({ format: 'uuid', description: 'Reply to this comment (in its thread).' })
  @IsOptional()
  @IsUUID()
  parentId?: string;
}

export class UpdateCommentDto {
  @ApiProperty({ description: `The new Markdown, at most ${MAX_COMMENT_LENGTH} characters.` })
  @IsString()
  body: string;
}

export class CommentAnchorResponse {
  @ApiProperty()
  quote: string;

  @ApiProperty()
  prefix: string;

  @ApiProperty()
  suffix: string;

  @ApiProperty({
    type: 'integer',
    description: "Where the passage starts in the page's text now (last seen, when outdated).",
  })
  start: number;

  @ApiProperty({ type: 'integer' })
  end: number;
}

export class CommentResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid', description: "The thread's first comment." })
  threadId: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The comment replied to (null: starts a thread).',
  })
  parentId: string | null;

  @ApiProperty({ description: 'Markdown as written.' })
  body: string;

  @ApiProperty({ description: 'The body rendered and sanitised as pages are.' })
  html: string;

  @ApiProperty({ type: UserRefResponse, nullable: true })
  author: UserRefResponse | null;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  editedAt: string | null;

  @ApiProperty({ description: 'Whether the thread is resolved.' })
  resolved: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  resolvedAt: string | null;

  @ApiProperty({
    description: 'An inline thread whose passage is no longer in the page (the quote is kept).',
  })
  outdated: boolean;

  @ApiProperty({
    type: CommentAnchorResponse,
    nullable: true,
    description: 'The passage of an inline thread (on its first comment); null otherwise.',
  })
  anchor: CommentAnchorResponse | null;
}

export class CommentCounts {
  @ApiProperty({ type: 'integer' })
  open: number;

  @ApiProperty({ type: 'integer' })
  resolved: number;
}

export class CommentList extends listOf(CommentResponse) {
  @ApiProperty({ type: CommentCounts, description: "The page's threads by state." })
  threads: CommentCounts;
}

export class MentionCandidate {
  @ApiProperty()
  username: string;

  @ApiProperty()
  displayName: string;
}

export class MentionCandidateList {
  @ApiProperty({ type: [MentionCandidate] })
  items: MentionCandidate[];
}
