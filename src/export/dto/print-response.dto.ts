import { ApiProperty } from '@nestjs/swagger';

/** `POST /export/preview/{slug}`: what PrintService.preview() answers, with its schema. */
export class PrintPreviewResponse {
  @ApiProperty({
    description: 'The print document: self-contained HTML, images inlined, overrides applied.',
  })
  document: string;
}

/** One variable the print dialog may override, with its saved value. */
export class PrintVariableResponse {
  @ApiProperty({ example: 'customer_name' })
  name: string;

  @ApiProperty({ description: 'The saved value: the page’s own, else the site-wide one.' })
  value: string;

  @ApiProperty({ enum: ['page', 'site'], description: 'Where the saved value comes from.' })
  source: 'page' | 'site';
}

/** `GET /export/variables/{slug}`: PrintVariablesService.list() in order of first use. */
export class PrintVariablesResponse {
  @ApiProperty({ type: [PrintVariableResponse] })
  variables: PrintVariableResponse[];
}
