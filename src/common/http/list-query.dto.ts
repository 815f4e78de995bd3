import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** `limit` and `cursor`; parsed and range-checked by parseListRequest. */
export class ListQueryDto {
  // Defaults are said in descriptions, not `default`: generated clients (openapi-typescript)
  // would make a member with a default required.
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'default 20' })
  @IsOptional()
  @IsString()
  limit?: string;

  @ApiPropertyOptional({ description: 'nextCursor from the previous page' })
  @IsOptional()
  @IsString()
  cursor?: string;
}
