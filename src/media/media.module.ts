import { Module } from '@nestjs/common';
import { configToken } from '../common/config/app-config';
import type { FilesConfig } from '../common/config/database-config';
import type { MediaConfig } from '../common/config/media-config';
import { MediaContentService } from './media-content.service';
import { PagesModule } from '../pages/public-api';
import { MediaAccess } from './media-access';
import { MediaReferenceLookup } from './media-references';
import { AttachmentsController, ImagesController } from './media.controller';
import { MediaRepository } from './media.repository';
import { MediaService } from './media.service';
import { MediaSweeper } from './media-sweeper';
import { MediaUploadReceiver } from './upload/media-upload';
import { createMediaStorage } from './storage/create-media-storage';
import { MEDIA_STORAGE } from './storage/media-storage';
import { AttachmentTextIndexer } from './text/attachment-text-indexer';

@Module({
  // PagesModule knows which pages reference an item and which of them a caller may see; it
  // never imports MediaModule.
  imports: [PagesModule],
  controllers: [ImagesController, AttachmentsController],
  providers: [
    MediaRepository,
    MediaService,
    MediaSweeper,
    MediaContentService,
    MediaUploadReceiver,
    {
      provide: MEDIA_STORAGE,
      inject: [configToken('media'), configToken('files')],
      useFactory: (media: MediaConfig, files: FilesConfig) =>
        createMediaStorage(media.store, files.dataDir),
    },
    MediaReferenceLookup,
    MediaAccess,
    AttachmentTextIndexer,
  ],
  exports: [MediaService, MediaSweeper, MEDIA_STORAGE, AttachmentTextIndexer],
})
export class MediaModule {}
