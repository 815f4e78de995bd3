import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsObject } from 'class-validator';

/** The most operations one batch may hold (422 `too_many_operations` above it). */
export const MAX_BATCH_OPERATIONS = 500;
/** The most JSON members (object members and array elements) a batch body may hold (413). */
export const MAX_BATCH_MEMBERS = 50_000;
export const BATCH_OPS = ['create', 'update', 'move', 'bin', 'metadata'] as const;
export type BatchOp = (typeof BATCH_OPS)[number];

/** One operation as sent; its members are checked by the rules of its op (BatchService). */
export class BatchOperationDto {
  @ApiProperty({ enum: BATCH_OPS })
  op: BatchOp;

  @ApiProperty({
    example: 'docs/team-a/setup',
    description: 'the page (create: its new slug; move: the page or folder to move)',
  })
  slug: string;

  @ApiPropertyOptional({
    description:
      'update, bin, metadata: the ETag you read (`"3"`, or the revision number); stale: the batch fails with 412 `revision_mismatch` naming this operation. update needs it or `baseRevision`.',
    oneOf: [{ type: 'string' }, { type: 'integer' }],
  })
  ifMatch?: string | number;

  @ApiPropertyOptional({ description: 'create, update: the title' })
  title?: string;

  @ApiPropertyOptional({ description: 'create, update: the Markdown' })
  content?: string;

  @ApiPropertyOptional({ type: [String], description: 'create, update, metadata' })
  tags?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'create, update, metadata: page properties; every other metadata member of POST /api/pages is taken too (lifecycle, owner, icon, language, reviewIntervalDays, nextReviewAt, deprecatedTarget, variables; create and update also groups, summary; update baseRevision)',
  })
  properties?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'move: the new slug' })
  to?: string;

  @ApiPropertyOptional({ description: 'move: also every page under `slug` (default false)' })
  subtree?: boolean;
}

export class BatchDto {
  @ApiProperty({
    type: [BatchOperationDto],
    minItems: 1,
    maxItems: MAX_BATCH_OPERATIONS,
    description: `At most ${MAX_BATCH_OPERATIONS} operations, applied in order in one transaction; each page at most once.`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @IsObject({ each: true })
  operations: Record<string, unknown>[];
}

export class BatchResultDto {
  @ApiProperty({ description: 'the position of the operation in `operations`' })
  index: number;

  @ApiProperty({ enum: BATCH_OPS })
  op: BatchOp;

  @ApiProperty({ description: 'the page the operation names' })
  slug: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'create, update, metadata, bin: the page' })
  id?: string;

  @ApiPropertyOptional({ description: 'create, update, metadata: the revision written (ETag)' })
  revision?: number;

  @ApiPropertyOptional({
    type: 'array',
    items: {
      type: 'object',
      properties: { from: { type: 'string' }, to: { type: 'string' } },
      required: ['from', 'to'],
    },
    description: 'move: every page moved',
  })
  moved?: { from: string; to: string }[];
}

export class BatchResponse {
  @ApiProperty({ type: [BatchResultDto], description: 'one result per operation, in order' })
  results: BatchResultDto[];
}
