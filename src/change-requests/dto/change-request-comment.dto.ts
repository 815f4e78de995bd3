import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, IsUUID, MaxLength, Min } from 'class-validator';
import { UserRefResponse } from '../../auth/public-api';
import { listOf } from '../../common/openapi/list-of';
import { Optional } from '../../common/problems/optional';
import { DIFF_SIDES, type DiffSide } from '../store/change-request-columns';

/** The longest review comment, in characters (as comments on pages). */
export const MAX_REVIEW_COMMENT_LENGTH = 10_000;
/** The most comments one change request holds. */
export const MAX_REVIEW_COMMENTS = 1000;

const DATE_TIME = { type: String, format: 'date-time' } as const;

/** `POST /api/change-requests/{id}/comments`: a comment on a line of a change, or a reply. */
export class CreateReviewCommentDto {
  @ApiProperty({
    description: `Markdown, at most ${MAX_REVIEW_COMMENT_LENGTH} characters (sanitised like pages).`,
  })
  @IsString()
  body: string;

  @ApiPropertyOptional({
    description: 'The page change commented on (its `slug`); a reply takes its thread’s.',
  })
  @Optional()
  @IsString()
  @MaxLength(300)
  slug?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'The 1-based line of that side of the diff; a reply takes its thread’s.',
  })
  @Optional()
  @IsInt()
  @Min(1)
  line?: number;

  @ApiPropertyOptional({
    enum: DIFF_SIDES,
    enumName: 'DiffSide',
    description:
      'Which text the line is in: `proposed` (default: added and unchanged lines) or `base` (removed lines).',
  })
  @Optional()
  @IsIn(DIFF_SIDES)
  side?: DiffSide;

  @ApiPropertyOptional({ format: 'uuid', description: 'Reply to this comment (in its thread).' })
  @Optional()
  @IsUUID()
  parentId?: string;
}

export class UpdateReviewCommentDto {
  @ApiProperty({
    description: `The new Markdown, at most ${MAX_REVIEW_COMMENT_LENGTH} characters.`,
  })
  @IsString()
  body: string;
}

export class ReviewCommentResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid', description: "The thread's first comment." })
  threadId: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  parentId: string | null;

  @ApiProperty({ description: 'The page change (its slug).' })
  slug: string;

  @ApiProperty({ enum: DIFF_SIDES, enumName: 'DiffSide' })
  side: DiffSide;

  @ApiProperty({
    type: 'integer',
    description:
      '1-based line of that side now: where the line it was written on is in the current version (an update may move it); its old number when outdated',
  })
  line: number;

  @ApiProperty({ description: 'The text of the line when the thread was started.' })
  lineText: string;

  @ApiProperty({ description: 'The version of the request the comment was written on.' })
  version: number;

  @ApiProperty({
    description:
      'The request was updated since and no line has the text it was written on any more (or the page change is gone); the thread is kept.',
  })
  outdated: boolean;

  @ApiProperty({ description: 'Markdown as written.' })
  body: string;

  @ApiProperty({ description: 'The body rendered and sanitised as pages are.' })
  html: string;

  @ApiProperty({ type: UserRefResponse, nullable: true })
  author: UserRefResponse | null;

  @ApiProperty({ ...DATE_TIME })
  createdAt: string;

  @ApiProperty({ ...DATE_TIME, nullable: true })
  editedAt: string | null;
}

export class ReviewCommentList extends listOf(ReviewCommentResponse) {}
