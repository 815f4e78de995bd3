import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../common/http/page-query.dto';

export class PageListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'only pages with this tag' })
  @IsOptional()
  @IsString()
  tag?: string;
}

export class RevisionListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'the page whose revisions to list (required)' })
  @IsOptional()
  @IsString()
  slug?: string;
}
