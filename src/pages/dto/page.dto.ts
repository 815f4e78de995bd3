import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Min,
} from 'class-validator';
import { Optional, OptionalNotNull } from '../../common/problems/optional';
import { BodyMayBeOmitted } from '../../common/problems/validation';
import { LIFECYCLES, type Lifecycle, type PropertyValue } from '../model/page-columns';
import { PROPERTIES_SCHEMA, VARIABLES_SCHEMA } from './page-response.dto';

/** `summary` of a write: stored with the revision it makes, not a page field. */
function RevisionSummaryMember(): PropertyDecorator {
  const decorators = [
    ApiPropertyOptional({
      type: String,
      nullable: true,
      maxLength: 500,
      example: 'Fixed the install steps',
      description:
        'optional change summary, stored with the revision this write makes (revision lists, history, notifications, the event feed, webhooks, archives); one line of at most 500 characters (422 `summary_too_long`, `invalid_summary`); blank: none',
    }),
    IsOptional(),
    IsString(),
  ];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

/**
 * Page fields shared by create and update. Types are checked here; the rules (slug, lengths,
 * groups, owner, deprecated target, properties, variables) in PageInputService, which reports
 * every bad field at once.
 */
export class PageFieldsDto {
  @ApiPropertyOptional({ description: 'Markdown' })
  @OptionalNotNull()
  @IsString()
  content?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 64 })
  @IsOptional()
  @IsString()
  icon?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'en-GB',
    description: 'BCP 47 language tag',
  })
  @IsOptional()
  @IsString()
  language?: string | null;

  @ApiPropertyOptional({
    type: [String],
    description: 'at most 50, each 1-64 characters; stored lowercase',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  tags?: string[];

  @ApiPropertyOptional({
    enum: LIFECYCLES,
    enumName: 'Lifecycle',
    description: 'default on create: published',
  })
  @OptionalNotNull()
  @IsString()
  @IsIn(LIFECYCLES)
  lifecycle?: Lifecycle;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'username of an active user who owns the page (told when others edit or bin it, and when a review is due); null: nobody. On create, absent means the creator owns the page; on update, absent keeps the owner.',
  })
  @IsOptional()
  @IsString()
  owner?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, maximum: 3650 })
  @IsOptional()
  @IsInt()
  reviewIntervalDays?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @IsOptional()
  @IsString()
  nextReviewAt?: string | null;

  @ApiPropertyOptional({
    type: [String],
    description: 'group names; empty: visible to every signed-in user',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  groups?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, description: 'slug of a live page' })
  @IsOptional()
  @IsString()
  deprecatedTarget?: string | null;

  @ApiPropertyOptional(PROPERTIES_SCHEMA)
  @OptionalNotNull()
  @IsObject()
  properties?: Record<string, PropertyValue>;

  @ApiPropertyOptional(VARIABLES_SCHEMA)
  @OptionalNotNull()
  @IsObject()
  variables?: Record<string, string>;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  verified?: boolean;
}

export class CreatePageDto extends PageFieldsDto {
  @ApiProperty({ example: 'guides/getting-started' })
  @IsString()
  slug: string;

  @ApiProperty({ maxLength: 255 })
  @IsString()
  title: string;

  @RevisionSummaryMember()
  summary?: string | null;
}

export class UpdatePageDto extends PageFieldsDto {
  @ApiPropertyOptional({ description: 'a new slug moves the page' })
  @OptionalNotNull()
  @IsString()
  slug?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @OptionalNotNull()
  @IsString()
  title?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'the revision this edit is based on (or send If-Match)',
  })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  baseRevision?: number;

  @RevisionSummaryMember()
  summary?: string | null;
}

export class PreviewDto {
  @ApiProperty({ description: 'Markdown to render' })
  @IsString()
  content: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @Optional()
  @IsObject()
  variables?: Record<string, string>;

  @ApiPropertyOptional({ description: 'slug relative links resolve against' })
  @Optional()
  @IsString()
  slug?: string;
}

export class SiteVariablesDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  @IsObject()
  variables: Record<string, string>;
}

export class RestoreRevisionDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'optional: refuse (409) unless the page is still at this revision',
  })
  @Optional()
  @IsInt()
  @Min(1)
  baseRevision?: number;
}

@BodyMayBeOmitted()
export class RestoreFromBinDto {
  @ApiPropertyOptional({
    example: 'guides/getting-started-old',
    description:
      'optional: restore under this slug instead of the one the page had (the rules of page create; 409 `slug_taken` when a live page uses it)',
  })
  @Optional()
  @IsString()
  slug?: string;
}
