import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { listOf } from '../../common/openapi/list-of';
import { Optional } from '../../common/problems/optional';
import {
  CHANGE_ACTIONS,
  CHANGE_REQUEST_STATES,
  type ChangeAction,
  type ChangeRequestState,
} from '../store/change-request-columns';

/** The most pages one request changes, and the longest description. */
export const MAX_CHANGES = 200;
export const MAX_DESCRIPTION_LENGTH = 20_000;

const DATE_TIME = { type: String, format: 'date-time' } as const;

export class ProposedChangeDto {
  @ApiProperty({ example: 'docs/setup', description: 'the page (for `create`: its new slug)' })
  @IsString()
  @MaxLength(300)
  slug: string;

  @ApiProperty({ enum: CHANGE_ACTIONS, enumName: 'ChangeAction' })
  @IsIn(CHANGE_ACTIONS)
  action: ChangeAction;

  @ApiPropertyOptional({ description: 'the proposed Markdown (`update`, `create`)' })
  @Optional()
  @IsString()
  content?: string;

  @ApiPropertyOptional({ description: 'the proposed title (`update`, `create`)' })
  @Optional()
  @IsString()
  @MaxLength(255)
  title?: string;

  @ApiPropertyOptional({
    description:
      'the revision the change was made from (`update`, `bin`, `move`; default: the current one); ' +
      'when the page moved on since, merging is a three-way merge from it',
  })
  @Optional()
  @IsInt()
  @Min(1)
  baseRevision?: number;

  @ApiPropertyOptional({ description: 'the new slug (`move`)' })
  @Optional()
  @IsString()
  @MaxLength(300)
  to?: string;
}

/** `POST /api/change-requests`, and `PUT /api/change-requests/{id}` (a new set of changes). */
export class ChangeRequestDto {
  @ApiProperty({ example: 'Clarify the install steps' })
  @IsString()
  @MaxLength(255)
  title: string;

  @ApiPropertyOptional({ description: `Markdown, at most ${MAX_DESCRIPTION_LENGTH} characters` })
  @Optional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string;

  @ApiProperty({ type: [ProposedChangeDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CHANGES)
  @ValidateNested({ each: true })
  @Type(() => ProposedChangeDto)
  changes: ProposedChangeDto[];

  @ApiPropertyOptional({
    type: [String],
    description: 'usernames asked to review (notified); each must be able to see the pages',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  reviewers?: string[];

  @ApiPropertyOptional({
    description:
      'a label (a CI branch): POST with a label you have an open request for updates that request',
  })
  @Optional()
  @IsString()
  @MaxLength(200)
  label?: string;
}

export class ChangeRequestListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: [...CHANGE_REQUEST_STATES, 'all'], description: 'default open' })
  @Optional()
  @IsIn([...CHANGE_REQUEST_STATES, 'all'])
  state?: ChangeRequestState | 'all';
}

export class ChangeResponse {
  @ApiProperty()
  slug: string;

  @ApiProperty({ enum: CHANGE_ACTIONS, enumName: 'ChangeAction' })
  action: ChangeAction;

  @ApiProperty({ type: String, nullable: true })
  to: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'the proposed title' })
  title: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'the proposed Markdown' })
  content: string | null;

  @ApiProperty({ type: Number, nullable: true })
  baseRevision: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'the title at the base revision' })
  baseTitle: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'the Markdown at the base revision' })
  baseContent: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'the page revision now (null: no visible page)',
  })
  currentRevision: number | null;
}

export class ConflictHunkResponse {
  @ApiProperty({ description: '1-based line in the base' })
  line: number;

  @ApiProperty()
  base: string;

  @ApiProperty()
  proposed: string;

  @ApiProperty()
  current: string;
}

export class ConflictResponse {
  @ApiProperty()
  slug: string;

  @ApiProperty({
    enum: ['overlapping_edits', 'changed_since_base', 'page_gone', 'slug_taken'],
    description:
      'overlapping_edits: both sides changed the same lines (`hunks`); changed_since_base: a page to bin was edited since; page_gone: the page is no longer there; slug_taken: a live page has the slug to create or move to',
  })
  reason: string;

  @ApiProperty({ type: [ConflictHunkResponse] })
  hunks: ConflictHunkResponse[];
}

export class ApprovalResponse {
  @ApiProperty({ type: String, nullable: true })
  username: string | null;

  @ApiProperty({ ...DATE_TIME })
  at: string;
}

export class ReviewResponse extends ApprovalResponse {
  @ApiProperty({ enum: ['approved', 'changes_requested'] })
  verdict: 'approved' | 'changes_requested';

  @ApiProperty({ description: 'false: given for an earlier version of the changes' })
  current: boolean;
}

export class RuleStatusResponse {
  @ApiProperty()
  prefix: string;

  @ApiProperty({ description: 'approvals the rule asks for' })
  approvals: number;

  @ApiProperty({ description: 'approvals that count for it (current version, not the author)' })
  approved: number;

  @ApiProperty({ type: [String] })
  groups: string[];

  @ApiProperty({ type: [String] })
  users: string[];
}

export class ChangeRequestSummaryResponse {
  @ApiProperty()
  id: number;

  @ApiProperty()
  title: string;

  @ApiProperty({ enum: CHANGE_REQUEST_STATES, enumName: 'ChangeRequestState' })
  state: ChangeRequestState;

  @ApiProperty({ type: String, nullable: true })
  author: string | null;

  @ApiProperty({ type: String, nullable: true })
  label: string | null;

  @ApiProperty({ description: 'moves with every update of the changes' })
  version: number;

  @ApiProperty({ type: [String], description: 'the slugs it touches' })
  slugs: string[];

  @ApiProperty({ ...DATE_TIME })
  createdAt: string;

  @ApiProperty({ ...DATE_TIME })
  updatedAt: string;

  @ApiProperty({ description: 'the console page of the request' })
  url: string;
}

export class ChangeRequestResponse extends ChangeRequestSummaryResponse {
  @ApiProperty()
  description: string;

  @ApiProperty({ type: [ChangeResponse] })
  changes: ChangeResponse[];

  @ApiProperty({ type: [ApprovalResponse], description: 'approvals that count (current version)' })
  approvals: ApprovalResponse[];

  @ApiProperty({ type: [ReviewResponse] })
  reviews: ReviewResponse[];

  @ApiProperty({ type: [String], description: 'usernames asked to review' })
  reviewers: string[];

  @ApiProperty({ type: [RuleStatusResponse], description: 'protected paths it touches' })
  rules: RuleStatusResponse[];

  @ApiProperty({ description: 'approvals still missing (0: enough)' })
  approvalsMissing: number;

  @ApiProperty({ type: [ConflictResponse], description: 'what blocks merging until updated' })
  conflicts: ConflictResponse[];

  @ApiProperty({ description: 'open, no conflicts and enough approvals' })
  mergeable: boolean;

  @ApiProperty({ ...DATE_TIME, nullable: true })
  closedAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'who merged or closed it' })
  closedBy: string | null;
}

export class ChangeRequestList extends listOf(ChangeRequestSummaryResponse) {}

export class BrokenLinkResponse {
  @ApiProperty({ description: 'the page as proposed' })
  page: string;

  @ApiProperty()
  target: string;

  @ApiProperty()
  line: number;

  @ApiProperty({ enum: ['link', 'image'] })
  kind: 'link' | 'image';
}

export class ChangeRequestLinksResponse {
  @ApiProperty({
    type: [BrokenLinkResponse],
    description:
      'links that would be broken after the merge: in the proposed pages, and in pages linking to pages it bins',
  })
  items: BrokenLinkResponse[];
}

/** One rule of `PUT /api/protected-paths`. */
export class ProtectedPathDto {
  @ApiProperty({ example: 'policies' })
  @IsString()
  @MaxLength(255)
  prefix: string;

  @ApiProperty({ description: 'approvals a change request under it needs (0-20)' })
  @IsInt()
  @Min(0)
  @Max(20)
  approvals: number;

  @ApiPropertyOptional({
    type: [String],
    description: 'only approvals of members of these groups count',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  groups?: string[];

  @ApiPropertyOptional({
    type: [String],
    description: 'only approvals of these people count (with `groups`: either)',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  users?: string[];
}

export class ProtectedPathResponse {
  @ApiProperty()
  prefix: string;

  @ApiProperty()
  approvals: number;

  @ApiProperty({ type: [String] })
  groups: string[];

  @ApiProperty({ type: [String] })
  users: string[];
}
