import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';

export class PageListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'only pages with this tag' })
  @IsOptional()
  @IsString()
  tag?: string;
}

export class RevisionListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'the page whose revisions to list (required)' })
  @IsOptional()
  @IsString()
  slug?: string;
}
