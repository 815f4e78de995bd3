import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { PagesModule } from '../pages/pages.module';
import { ImportController } from './import.controller';
import { ImportService } from './import.service';

@Module({
  imports: [PagesModule, MediaModule],
  controllers: [ImportController],
  providers: [ImportService],
  exports: [ImportService],
})
export class ImportModule {}
