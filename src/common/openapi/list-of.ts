import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { Paged } from '../http/pagination';

/**
 * The list answer `{items, nextCursor}` of `item`, as a base class for a named list schema:
 * `export class PageSummaryList extends listOf(PageSummaryResponse) {}`.
 */
export function listOf<T>(item: Type<T>): Type<Paged<T>> {
  class List implements Paged<T> {
    @ApiProperty({ type: [item] })
    items: T[];

    @ApiProperty({
      type: String,
      nullable: true,
      description: 'Pass as `cursor` for the next page; null on the last page.',
    })
    nextCursor: string | null;
  }
  return List;
}
