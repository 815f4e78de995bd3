/**
 * What other modules may use of media (docs/CONTRACTS.md): its Nest module and the services it
 * exports; import sniffs file types the way uploads do; export reads media answers; the CLI
 * migrates the store. SQL fragments over its table: public-sql.ts. `npm run lint` refuses an
 * import of any other file of media from outside it.
 */
export { MediaModule } from './media.module';
export { MediaRepository } from './media.repository';
export { MediaService } from './media.service';
export { MediaSweeper } from './media-sweeper';
export { AttachmentTextIndexer } from './text/attachment-text-indexer';
export type { SweepHold } from './media-sweeper';
export { createMediaStorage } from './storage/create-media-storage';
export { LocalDiskMediaStorage } from './storage/local-disk-storage';
export { migrateMedia } from './storage/media-migration';
export type { MigrationOutcome } from './storage/media-migration';
export type { MediaViewer } from './media-access';
export type { MediaResponse } from './media.mapper';
export { detectImageType, SNIFF_BYTES } from './upload/file-type';
export { sanitizeFilename } from './upload/filename';
