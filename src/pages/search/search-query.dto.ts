import { ApiProperty } from '@nestjs/swagger';
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
