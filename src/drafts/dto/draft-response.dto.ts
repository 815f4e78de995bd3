import { ApiProperty } from '@nestjs/swagger';
import { listOf } from '../../common/openapi/list-of';
import { OpenSchema } from '../../common/openapi/open-schema.decorator';

/** The draft answers built by drafts.mapper.ts, with their OpenAPI schemas. */

export class DraftSummary {
  @ApiProperty({ example: 'page:guides/intro' })
  key: string;

  @ApiProperty({ type: String, nullable: true })
  title: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Bytes of the stored JSON.' })
  size: number;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time' })
  updatedAt: string;
}

export class DraftSummaryList extends listOf(DraftSummary) {}

/** A draft as stored: the client's own members, then the server's. */
@OpenSchema()
export class DraftResponse extends DraftSummary {
  @ApiProperty()
  content: string;

  [member: string]: unknown;
}
