import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';

export class SearchQueryDto extends ListQueryDto {
  @ApiProperty({
    description:
      'The query (docs/search.md): words (all must match; the last also as a prefix), `"exact phrase"`, `-word`, `a OR b`, ' +
      'and filters `tag:`, `owner:`, `under:`, `lifecycle:`, `verified:`, `lang:`, `updated:>YYYY-MM-DD` / `<`, `is:missing-links`. ' +
      '1-256 characters. May be left out when a filter parameter is given.',
  })
  @IsOptional()
  @IsString()
  q?: string;

  @ApiPropertyOptional({ description: 'Only pages with this tag (as `tag:` in q).' })
  @IsOptional()
  @IsString()
  tag?: string;

  @ApiPropertyOptional({ description: 'Only pages owned by this username (as `owner:`).' })
  @IsOptional()
  @IsString()
  owner?: string;

  @ApiPropertyOptional({
    description: 'Only this page and the pages under this slug (as `under:`).',
  })
  @IsOptional()
  @IsString()
  under?: string;

  @ApiPropertyOptional({
    enum: ['draft', 'published', 'in_review', 'deprecated', 'archived'],
    description: 'Only pages in this lifecycle state (as `lifecycle:`).',
  })
  @IsOptional()
  @IsString()
  lifecycle?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'As `verified:`.' })
  @IsOptional()
  @IsString()
  verified?: string;

  @ApiPropertyOptional({ description: 'Only pages in this language, e.g. `en` (as `lang:`).' })
  @IsOptional()
  @IsString()
  lang?: string;

  @ApiPropertyOptional({
    description: 'Only pages updated on or after this date, YYYY-MM-DD (as `updated:>=`).',
  })
  @IsOptional()
  @IsString()
  updatedAfter?: string;

  @ApiPropertyOptional({
    description: 'Only pages updated before this date, YYYY-MM-DD (as `updated:<`).',
  })
  @IsOptional()
  @IsString()
  updatedBefore?: string;

  @ApiPropertyOptional({
    enum: ['relevance', 'updated'],
    description: 'Order: best match first (default) or most recently updated first.',
  })
  @IsOptional()
  @IsString()
  sort?: string;

  @ApiPropertyOptional({
    description:
      'Comma-separated facets to count over the matching pages: `tags`, `folders` (top-level). Adds `facets`.',
    example: 'tags,folders',
  })
  @IsOptional()
  @IsString()
  facets?: string;
}

export class SuggestQueryDto {
  @ApiProperty({
    description:
      'The start of a slug, or words of a title (the last one as a prefix). 1-256 characters.',
  })
  @IsOptional()
  @IsString()
  q?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 20, description: 'default 8' })
  @IsOptional()
  @IsString()
  limit?: string;
}
