/**
 * What other modules may use of comments (docs/CONTRACTS.md): the archive export and the
 * kb-archive import carry a page's comments through CommentsArchive; MCP comments as its caller
 * through CommentsService.
 */
export { CommentsModule } from './comments.module';
export { CommentsService } from './comments.service';
export { CommentResponse, CreateCommentDto } from './dto/comment.dto';
export { CommentsArchive, readArchiveComments } from './comments-archive';
export type { ArchiveComment } from './comments-archive';
export { assertMayDeleteComment } from './comment-deletion';
