import { Env, OneOf } from './env-schema';

/** Who may comment (COMMENTS): everyone who can read a page, or only editors and admins. */
export const COMMENT_POLICIES = ['readers', 'editors'] as const;
export type CommentPolicy = (typeof COMMENT_POLICIES)[number];

/** Comments (docs/comments.md). */
export class CommentsConfig {
  /** COMMENTS: `readers` (anyone who may read the page) or `editors` (editors and admins). */
  @Env('COMMENTS') @OneOf(COMMENT_POLICIES) who: CommentPolicy = 'readers';
}
