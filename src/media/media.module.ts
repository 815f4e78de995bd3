import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { join } from 'node:path';
import { APP_CONFIG, AppConfig } from '../common/config/app-config';
import { MediaEntity } from './entities/media.entity';
import { MediaContentService } from './media-content.service';
import { MEDIA_REFERENCES, MediaReferenceLookup } from './media-references';
import { AttachmentsController, ImagesController } from './media.controller';
import { MediaService } from './media.service';
import { LocalDiskMediaStorage } from './storage/local-disk-storage';
import { MEDIA_STORAGE } from './storage/media-storage';

/** Until PagesService.slugsReferencingMedia lands, nothing is considered referenced. */
const noReferences: MediaReferenceLookup = { slugsReferencingMedia: () => Promise.resolve([]) };

@Module({
  imports: [TypeOrmModule.forFeature([MediaEntity])],
  controllers: [ImagesController, AttachmentsController],
  providers: [
    MediaService,
    MediaContentService,
    {
      provide: MEDIA_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new LocalDiskMediaStorage(join(config.dataDir, 'media')),
    },
    { provide: MEDIA_REFERENCES, useValue: noReferences },
  ],
  exports: [MediaService, MEDIA_STORAGE],
})
export class MediaModule {}
