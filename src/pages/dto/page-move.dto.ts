import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString } from 'class-validator';
import { listOf } from '../../common/openapi/list-of';
import { Optional } from '../../common/problems/optional';

const DATE_TIME = { type: String, format: 'date-time' } as const;

/** POST /api/pages/move */
export class MovePagesDto {
  @ApiProperty({ example: 'guides/setup', description: 'the slug of the page (or folder) to move' })
  @IsString()
  from: string;

  @ApiProperty({
    example: 'handbook/setup',
    description: 'its new slug (the rules of page create)',
  })
  @IsString()
  to: string;

  @ApiPropertyOptional({
    description:
      'also every page under `from` (`from/…` becomes `to/…`); `from` itself need not be a page (default false)',
  })
  @Optional()
  @IsBoolean()
  subtree?: boolean;

  @ApiPropertyOptional({
    description:
      'rewrite links to the old slugs in the pages you can see (a revision in each, summary "Links updated after a move"; default false)',
  })
  @Optional()
  @IsBoolean()
  rewriteLinks?: boolean;

  @ApiPropertyOptional({ description: 'answer what would happen; write nothing (default false)' })
  @Optional()
  @IsBoolean()
  dryRun?: boolean;
}

export class MovedPageResponse {
  @ApiProperty({ description: 'the old slug (now a redirect)' })
  from: string;

  @ApiProperty({ description: 'the new slug' })
  to: string;
}

export class RewrittenPageResponse {
  @ApiProperty({ description: 'the page whose links were rewritten (its slug after the move)' })
  slug: string;

  @ApiProperty({ description: 'the revision that holds the rewritten links (dry run: would hold)' })
  revision: number;
}

export class MoveResultResponse {
  @ApiProperty({ description: 'true when nothing was written' })
  dryRun: boolean;

  @ApiProperty({
    type: [MovedPageResponse],
    description: 'the moved pages you can see, by old slug',
  })
  moved: MovedPageResponse[];

  @ApiProperty({
    description: 'pages moved along that you cannot see (a folder may hold pages of other groups)',
  })
  hiddenMoved: number;

  @ApiProperty({ type: [RewrittenPageResponse], description: 'pages whose links were rewritten' })
  rewritten: RewrittenPageResponse[];
}

export class RedirectResponse {
  @ApiProperty({ description: 'the old slug' })
  from: string;

  @ApiProperty({ description: 'the slug of the page it names now (chains collapse)' })
  to: string;

  @ApiProperty({ description: 'the page is in the bin: the redirect answers 404 until restored' })
  binned: boolean;

  @ApiProperty(DATE_TIME)
  createdAt: string;

  @ApiProperty({ type: String, nullable: true, description: 'username of who moved the page' })
  createdBy: string | null;
}

export class RedirectList extends listOf(RedirectResponse) {}

export class RedirectQueryDto {
  @ApiProperty({ description: 'the old slug whose redirect to delete' })
  @IsString()
  from: string;
}
