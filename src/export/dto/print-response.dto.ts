import { ApiProperty } from '@nestjs/swagger';

/** `POST /export/preview/{slug}`: what PrintService.preview() answers, with its schema. */
export class PrintPreviewResponse {
  @ApiProperty({
    description: 'The print document: self-contained HTML, images inlined, overrides applied.',
  })
  document: string;
}
