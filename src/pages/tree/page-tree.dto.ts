import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { ListQueryDto } from '../../common/http/list-query.dto';
import { listOf } from '../../common/openapi/list-of';

export class PageTreeQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    description: 'the slug whose children to list; absent: the top level',
    example: 'guides',
  })
  @IsOptional()
  @IsString()
  parent?: string;
}

/** One child of a slug in the page tree: a page, a folder of deeper pages, or both. */
export class PageTreeNodeResponse {
  @ApiProperty({ example: 'guides/setup' })
  slug: string;

  @ApiProperty({ description: 'the last segment of the slug', example: 'setup' })
  name: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'the title of the page at this slug; null when only deeper pages exist',
  })
  title: string | null;

  @ApiProperty({ type: String, nullable: true })
  icon: string | null;

  @ApiProperty({ description: 'whether visible pages exist below this slug' })
  hasChildren: boolean;
}

export class PageTreeList extends listOf(PageTreeNodeResponse) {}
