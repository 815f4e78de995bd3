/**
 * The media module's functions and types for other modules (docs/CONTRACTS.md): import sniffs
 * file types the way uploads do; export reads media answers. Its injectable services are
 * imported from their own files, as MediaModule exports them.
 */
export type { MediaViewer } from './media-access';
export type { MediaResponse } from './media.mapper';
export { detectImageType, SNIFF_BYTES } from './upload/file-type';
export { sanitizeFilename } from './upload/filename';
