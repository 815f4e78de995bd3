/**
 * What other modules may use of comments (docs/CONTRACTS.md): the archive export and the
 * kb-archive import carry a page's comments through CommentsArchive.
 */
export { CommentsArchive, readArchiveComments } from './comments-archive';
export type { ArchiveComment } from './comments-archive';
