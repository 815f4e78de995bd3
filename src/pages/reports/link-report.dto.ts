import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { listOf } from '../../common/openapi/list-of';

/** `prefix`, and `limit` and `cursor` as every list, with a larger `limit` (see MAX_LINK_REPORT_LIMIT). */
export class LinkReportQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    description: 'Only pages at this slug or under it (`docs` covers `docs` and `docs/...`).',
  })
  @IsOptional()
  @IsString()
  prefix?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, description: 'default 20' })
  declare limit?: string;
}

export class BrokenLinkResponse {
  @ApiProperty({ description: 'The slug of the page whose Markdown holds the link.' })
  page: string;

  @ApiProperty({ description: 'The target as written in the Markdown.' })
  target: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: '1-based line in the Markdown.' })
  line: number;

  @ApiProperty({
    enum: ['link', 'image'],
    description: '`link`: no page (that you can see) at the target; `image`: no stored media.',
  })
  kind: 'link' | 'image';
}

export class BrokenLinkList extends listOf(BrokenLinkResponse) {}
