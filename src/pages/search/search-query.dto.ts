import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';

export class SearchQueryDto extends ListQueryDto {
  @ApiProperty({
    description:
      'Words to find in titles, content and tags (all must match; the last also as a prefix). 1-256 characters.',
  })
  @IsOptional()
  @IsString()
  q?: string;
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
