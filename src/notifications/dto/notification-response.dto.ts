import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UserRefResponse } from '../../auth/public-api';
import { listOf } from '../../common/openapi/list-of';
import { NOTIFICATION_KINDS, type NotificationKind } from '../entities/notification.entity';

/** The inbox answers built by notifications.mapper.ts, with their OpenAPI schemas. */

export class NotificationPageRef {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'The slug when the notice was created.' })
  slug: string;

  @ApiProperty({ description: 'The title when the notice was created.' })
  title: string;
}

/** Kind-specific details. */
export class NotificationData {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'page.updated, page.moved: the revision written.',
  })
  revision?: number;

  @ApiPropertyOptional({ description: 'page.moved: the slug the page had (now a redirect).' })
  from?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'page.updated: edits folded into it.' })
  updates?: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'page.updated: the change summary of the newest edit folded into it (null: that edit gave none).',
  })
  summary?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'page.review_due: when the review was due.',
  })
  dueAt?: string;

  @ApiPropertyOptional({ description: 'import.finished: the import format.' })
  format?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: "import.finished: the report's counts.",
  })
  counts?: Record<string, number>;
}

export class NotificationResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: NOTIFICATION_KINDS, enumName: 'NotificationKind' })
  kind: NotificationKind;

  @ApiProperty()
  read: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readAt: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({
    type: UserRefResponse,
    nullable: true,
    description: 'Who caused it (null for a review reminder, or when that account is gone).',
  })
  actor: UserRefResponse | null;

  @ApiProperty({ type: NotificationPageRef, nullable: true, description: 'The page it is about.' })
  page: NotificationPageRef | null;

  @ApiProperty({ type: NotificationData })
  data: NotificationData;
}

export class NotificationList extends listOf(NotificationResponse) {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Unread notices the caller may see, whatever the filter and page.',
  })
  unreadCount: number;
}
