import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { join } from 'node:path';
import { APP_CONFIG, AppConfig } from '../common/config/app-config';
import { MediaEntity } from './entities/media.entity';
import { MediaContentService } from './media-content.service';
import { PagesModule } from '../pages/pages.module';
import { MediaReferenceLookup } from './media-references';
import { AttachmentsController, ImagesController } from './media.controller';
import { MediaService } from './media.service';
import { LocalDiskMediaStorage } from './storage/local-disk-storage';
import { MEDIA_STORAGE } from './storage/media-storage';

@Module({
  // PagesModule's visibility rule decides which referencing pages a caller may see; it never imports MediaModule.
  imports: [TypeOrmModule.forFeature([MediaEntity]), PagesModule],
  controllers: [ImagesController, AttachmentsController],
  providers: [
    MediaService,
    MediaContentService,
    {
      provide: MEDIA_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new LocalDiskMediaStorage(join(config.dataDir, 'media')),
    },
    MediaReferenceLookup,
  ],
  exports: [MediaService, MEDIA_STORAGE],
})
export class MediaModule {}
