import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UserRefResponse } from '../../auth/public-api';
import { listOf } from '../../common/openapi/list-of';
import { MEDIA_KINDS, type MediaKind } from '../entities/media.entity';

/** Media metadata as media.mapper.ts builds it, with its OpenAPI schema. */

export class MediaResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: MEDIA_KINDS, enumName: 'MediaKind' })
  kind: MediaKind;

  @ApiProperty({ example: 'diagram.png' })
  filename: string;

  @ApiProperty({ description: 'Detected from the bytes, not the name.', example: 'image/png' })
  mimeType: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Bytes.' })
  size: number;

  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the content, hex.' })
  sha256: string;

  @ApiProperty({
    description: 'Where the content is served (signed-in users).',
    example: '/api/images/0b0c4a36-5d3e-4a52-9a3c-2f1f3b6f4f10/content',
  })
  url: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Images only: pixels.' })
  width?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Images only: pixels.' })
  height?: number;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({
    type: UserRefResponse,
    nullable: true,
    description: "null when the uploader's account was deleted.",
  })
  uploadedBy: UserRefResponse | null;
}

export class MediaList extends listOf(MediaResponse) {}
