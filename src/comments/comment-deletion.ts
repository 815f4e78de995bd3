import { type AuthUser, isAdmin } from '../common/auth/auth-user';
import { ConflictProblem, ForbiddenProblem } from '../common/problems/problem';

/** What the deletion rule reads of a comment: a thread's first comment has `id === threadId`. */
export interface DeletableComment {
  id: string;
  threadId: string;
  authorId: string | null;
}

/**
 * Who may delete a comment (page comments and change-request comments alike): its author or an
 * administrator; the first comment of a thread takes the thread with it, which only an
 * administrator may do once others replied (`repliesByOthers` asks, inside the caller's
 * transaction). `afterReplies` ends the refusal's words with what the author may do instead.
 */
export async function assertMayDeleteComment(
  comment: DeletableComment,
  actor: AuthUser,
  repliesByOthers: () => Promise<boolean>,
  afterReplies = 'ask an administrator to delete it.',
): Promise<void> {
  const admin = isAdmin(actor);
  if (comment.authorId !== actor.id && !admin)
    throw new ForbiddenProblem(
      'not_comment_author',
      'Only its author or an administrator may delete a comment.',
    );
  if (!admin && comment.id === comment.threadId && (await repliesByOthers()))
    throw new ConflictProblem(
      'comment_has_replies',
      `Others replied in this thread: ${afterReplies}`,
    );
}
