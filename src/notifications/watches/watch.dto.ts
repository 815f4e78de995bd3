import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { listOf } from '../../common/openapi/list-of';

/** `PUT` and `DELETE /api/watches`. */
export class WatchDto {
  @ApiProperty({ description: 'A page, or with `subtree` a folder (the page and all under it).' })
  @IsString()
  slug: string;

  @ApiPropertyOptional({
    description: 'Watch the page at `slug` and every page under it (default false).',
  })
  @IsOptional()
  @IsBoolean()
  subtree?: boolean;
}

export class WatchResponse {
  @ApiProperty()
  slug: string;

  @ApiProperty()
  subtree: boolean;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;
}

export class WatchList extends listOf(WatchResponse) {}
