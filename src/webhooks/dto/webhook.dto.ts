import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
} from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { OptionalNotNull } from '../../common/problems/optional';
import { NotNull } from '../../common/problems/validation';
import { EVENT_TYPES, type EventType } from '../event-types';

const EVENTS = { enum: EVENT_TYPES, enumName: 'EventType', isArray: true } as const;

export class CreateWebhookDto {
  @ApiProperty({
    example: 'https://ci.example.com/hooks/kb',
    maxLength: 2048,
    description:
      'http or https; private and loopback destinations are refused unless WEBHOOK_ALLOW_PRIVATE=true',
  })
  @NotNull('url must be an http or https URL, not null.')
  @IsString()
  @Length(1, 2048)
  url: string;

  @ApiProperty({ ...EVENTS, description: 'The event types to send (at least one).' })
  @NotNull('events must list at least one event type, not null.')
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length)
  @IsIn(EVENT_TYPES, { each: true })
  events: EventType[];

  @ApiPropertyOptional({
    description: '`whsec_` + base64 of 24 to 64 bytes; absent: generated (32 random bytes)',
  })
  @OptionalNotNull('secret may be left out (one is generated) but not null.')
  @IsString()
  secret?: string;

  @ApiPropertyOptional({ description: 'default true; an inactive webhook is sent nothing' })
  @OptionalNotNull('active may be left out (default true) but not null.')
  @IsBoolean()
  active?: boolean;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: 2048 })
  @OptionalNotNull('url may be left out (kept) but not null.')
  @IsString()
  @Length(1, 2048)
  url?: string;

  @ApiPropertyOptional(EVENTS)
  @OptionalNotNull('events may be left out (kept) but not null; list at least one event type.')
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(EVENT_TYPES.length)
  @IsIn(EVENT_TYPES, { each: true })
  events?: EventType[];

  @ApiPropertyOptional({ description: 'a new secret, `whsec_` + base64 (not shown again)' })
  @OptionalNotNull('secret may be left out (kept) but not null.')
  @IsString()
  secret?: string;

  @ApiPropertyOptional()
  @OptionalNotNull('active may be left out (kept) but not null.')
  @IsBoolean()
  active?: boolean;
}

export class EventQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    description:
      'Continue after this cursor (a `nextCursor`); `latest`: no items, the cursor of the newest event',
  })
  @IsOptional()
  @IsString()
  after?: string;
}
