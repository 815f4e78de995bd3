import type { CommentRow } from './comments.repository';
import type { CommentResponse } from './dto/comment.dto';

export function toCommentResponse(c: CommentRow): CommentResponse {
  return {
    id: c.id,
    threadId: c.threadId,
    parentId: c.parentId,
    body: c.body,
    html: c.html,
    author: c.author
      ? { id: c.author.id, username: c.author.username, displayName: c.author.displayName }
      : null,
    createdAt: c.createdAt.toISOString(),
    editedAt: c.editedAt?.toISOString() ?? null,
    resolved: c.threadResolvedAt !== null,
    resolvedAt: c.threadResolvedAt?.toISOString() ?? null,
    outdated: c.outdated,
    anchor: c.anchor
      ? {
          quote: c.anchor.quote,
          prefix: c.anchor.prefix,
          suffix: c.anchor.suffix,
          start: c.anchor.start,
          end: c.anchor.end,
        }
      : null,
  };
}
