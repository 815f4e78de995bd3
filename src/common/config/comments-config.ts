import { Env, oneOf } from './env-values';

/** Who may comment (COMMENTS): everyone who can read a page, or only editors and admins. */
export const COMMENT_POLICIES = ['readers', 'editors'] as const;
export type CommentPolicy = (typeof COMMENT_POLICIES)[number];

/** Comments (COMMENTS); see docs/comments.md. */
export interface CommentsConfig {
  who: CommentPolicy;
}

export function commentsConfig(env: Env): CommentsConfig {
  return { who: oneOf(env, 'COMMENTS', COMMENT_POLICIES, 'readers') };
}
