import { Module } from '@nestjs/common';
import { MediaModule } from '../media/public-api';
import { PagesModule } from '../pages/public-api';
import { ArchiveExportService } from './archive/archive-export.service';
import { ExportController } from './export.controller';
import { MarkdownExportService } from './markdown/markdown-export.service';
import { PdfClient } from './pdf/pdf-client';
import { PrintDocumentService } from './print/print-document.service';
import { PrintService } from './print/print.service';
import { PrintController } from './print.controller';
import { PrintVariablesController } from './print-variables.controller';
import { PrintVariablesService } from './print/print-variables.service';

@Module({
  imports: [PagesModule, MediaModule],
  controllers: [ExportController, PrintController, PrintVariablesController],
  providers: [
    PdfClient,
    PrintDocumentService,
    PrintService,
    PrintVariablesService,
    MarkdownExportService,
    ArchiveExportService,
  ],
  exports: [PrintDocumentService, PdfClient],
})
export class ExportModule {}
