import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export const PAGE_EXPORT_FORMATS = ['markdown', 'zip'] as const;
export type PageExportFormat = (typeof PAGE_EXPORT_FORMATS)[number];

export class PageExportQueryDto {
  @ApiPropertyOptional({
    enum: PAGE_EXPORT_FORMATS,
    description:
      'absent: Markdown, or a ZIP with images/ when the page shows stored images; `markdown`: the Markdown alone (image references stay kb URLs); `zip`: always a ZIP (the Markdown and images/, when it has any)',
  })
  @IsOptional()
  @IsIn(PAGE_EXPORT_FORMATS)
  format?: PageExportFormat;
}
