import { ApiProperty } from '@nestjs/swagger';
import { IMPORT_FORMATS, type ImportFormat, type ImportReport } from '../import.types';

/**
 * The import report (import.types.ts's ImportReport, built by import.mapper.ts) as classes
 * whose decorators are its OpenAPI schema; `implements` and the typed client test keep the two
 * the same shape.
 */

export class ImportSkippedFile {
  @ApiProperty({ description: 'The file as named in the upload.' })
  path: string;

  @ApiProperty()
  reason: string;

  @ApiProperty()
  code: string;
}

export class ImportedMedia {
  @ApiProperty({ description: 'Archive path of the file.' })
  path: string;

  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'null in a dry run.' })
  id: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'null in a dry run.' })
  url: string | null;
}

export class ImportStoredAsAttachment extends ImportedMedia {
  @ApiProperty()
  reason: string;
}

export class ImportUnresolvedReference {
  @ApiProperty({ description: 'The page (source path) holding the reference.' })
  path: string;

  @ApiProperty()
  target: string;
}

export class ImportRefusedFile {
  @ApiProperty()
  path: string;

  @ApiProperty()
  code: string;

  @ApiProperty()
  reason: string;
}

export class ImportIgnoredFile {
  @ApiProperty({ description: 'The file as named in the upload.' })
  path: string;

  @ApiProperty({ description: 'Why it was neither a page nor stored.' })
  reason: string;
}

export class ImportMacro {
  @ApiProperty({ description: 'The Confluence macro name (`code`, `info`, `expand`…).' })
  name: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Times it occurs in the import.' })
  count: number;

  @ApiProperty({ description: 'What it became (`callout (NOTE)`, `dropped (…)`…).' })
  conversion: string;
}

const COUNT = { type: 'integer', minimum: 0 } as const;

export class ImportCounts {
  @ApiProperty(COUNT) created: number;
  @ApiProperty(COUNT) replaced: number;
  @ApiProperty(COUNT) unchanged: number;
  @ApiProperty(COUNT) binned: number;
  @ApiProperty(COUNT) skipped: number;
  @ApiProperty(COUNT) images: number;
  @ApiProperty(COUNT) attachments: number;
  @ApiProperty(COUNT) unresolvedLinks: number;
  @ApiProperty(COUNT) unresolvedImages: number;
  @ApiProperty(COUNT) refusedFiles: number;
  @ApiProperty(COUNT) storedAsAttachment: number;
  @ApiProperty(COUNT) siteVariables: number;
  @ApiProperty(COUNT) ignored: number;
  @ApiProperty(COUNT) macros: number;
}

export class ImportReportResponse implements ImportReport {
  @ApiProperty({ enum: IMPORT_FORMATS, enumName: 'ImportFormat' })
  format: ImportFormat;

  @ApiProperty({ description: 'true: nothing was written; the report says what would be.' })
  dryRun: boolean;

  @ApiProperty({ type: [String], description: 'Slugs of the pages created.' })
  created: string[];

  @ApiProperty({ type: [String], description: 'Slugs of the pages replaced (metadata kept).' })
  replaced: string[];

  @ApiProperty({ type: [String], description: 'Slugs of the pages that were already the same.' })
  unchanged: string[];

  @ApiProperty({
    type: [String],
    description:
      'mode=mirror: slugs of the live pages under the prefix that the upload no longer holds, moved to the bin (restorable through /api/bin); in a dry run, those that would be.',
  })
  binned: string[];

  @ApiProperty({ type: [ImportSkippedFile], description: 'Invalid files left out (skipInvalid).' })
  skipped: ImportSkippedFile[];

  @ApiProperty({ type: [ImportedMedia] })
  images: ImportedMedia[];

  @ApiProperty({ type: [ImportedMedia] })
  attachments: ImportedMedia[];

  @ApiProperty({ type: [ImportUnresolvedReference] })
  unresolvedLinks: ImportUnresolvedReference[];

  @ApiProperty({ type: [ImportUnresolvedReference] })
  unresolvedImages: ImportUnresolvedReference[];

  @ApiProperty({
    type: [ImportRefusedFile],
    description: 'Referenced files the media rules refused (type or size).',
  })
  refusedFiles: ImportRefusedFile[];

  @ApiProperty({
    type: [ImportStoredAsAttachment],
    description:
      'Files referenced as images of a type kb does not serve as an image (SVG, BMP…): stored as attachments.',
  })
  storedAsAttachment: ImportStoredAsAttachment[];

  @ApiProperty({ type: [String], description: 'Site-wide variables a kb archive set.' })
  siteVariables: string[];

  @ApiProperty({
    type: [ImportIgnoredFile],
    description: 'Files that are neither pages nor referenced by one, with the reason.',
  })
  ignored: ImportIgnoredFile[];

  @ApiProperty({
    type: [ImportMacro],
    description: 'Confluence macros met (XML space export), by name, and how each was converted.',
  })
  macros: ImportMacro[];

  @ApiProperty({ type: ImportCounts })
  counts: ImportCounts;
}
