import { column, RowOf, valueOf } from '../../common/database/column-defs';

export const CHANGE_REQUEST_STATES = ['open', 'merged', 'closed'] as const;
export type ChangeRequestState = (typeof CHANGE_REQUEST_STATES)[number];

export const CHANGE_ACTIONS = ['update', 'create', 'bin', 'move'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

export const VERDICTS = ['approved', 'changes_requested'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** `change_requests`: one row per request; `version` moves with every update of its changes. */
export const CHANGE_REQUEST_COLUMNS = {
  id: column.int('id', { primary: true }),
  title: column.varchar('title', 255),
  description: column.text('description'),
  authorId: column.uuid('author_id'),
  state: column.varchar('state', 16, {}, valueOf<ChangeRequestState>()),
  label: column.varchar('label', 200, { nullable: true }),
  version: column.int('version'),
  reviewerIds: column.json('reviewer_ids', {}, valueOf<string[]>()),
  createdAt: column.datetime('created_at'),
  updatedAt: column.datetime('updated_at'),
  closedBy: column.uuid('closed_by', { nullable: true }),
  closedAt: column.datetime('closed_at', { nullable: true }),
};
export type ChangeRequestRow = RowOf<typeof CHANGE_REQUEST_COLUMNS>;

/**
 * `change_request_changes`: the proposed change of one page, with the revision (and its title
 * and Markdown) it was based on, which the three-way merge needs.
 */
export const CHANGE_COLUMNS = {
  requestId: column.int('request_id', { primary: true }),
  position: column.int('position', { primary: true }),
  slug: column.varchar('slug', 255),
  action: column.varchar('action', 8, {}, valueOf<ChangeAction>()),
  to: column.varchar('to_slug', 255, { nullable: true }),
  title: column.varchar('title', 500, { nullable: true }),
  content: column.text('content', { nullable: true }),
  pageId: column.uuid('page_id', { nullable: true }),
  baseRevision: column.int('base_revision', { nullable: true }),
  baseContent: column.text('base_content', { nullable: true }),
  baseTitle: column.varchar('base_title', 500, { nullable: true }),
};
export type ChangeRow = RowOf<typeof CHANGE_COLUMNS>;

/** `change_request_reviews`: each reviewer's latest verdict, for the version they reviewed. */
export const REVIEW_COLUMNS = {
  requestId: column.int('request_id', { primary: true }),
  userId: column.uuid('user_id', { primary: true }),
  verdict: column.varchar('verdict', 24, {}, valueOf<Verdict>()),
  version: column.int('version'),
  reviewerRole: column.varchar('reviewer_role', 16),
  reviewerGroups: column.json('reviewer_groups', {}, valueOf<string[]>()),
  createdAt: column.datetime('created_at'),
};
export type ReviewRow = RowOf<typeof REVIEW_COLUMNS>;

export const DIFF_SIDES = ['base', 'proposed'] as const;
export type DiffSide = (typeof DIFF_SIDES)[number];

/**
 * `change_request_comments`: a review comment on one line of a page change's diff (`side`:
 * the base text or the proposed one), with that line's text when it was written (a later
 * version whose line differs shows the comment as outdated). A reply names its thread.
 */
export const REQUEST_COMMENT_COLUMNS = {
  id: column.uuid('id', { primary: true }),
  requestId: column.int('request_id'),
  threadId: column.uuid('thread_id'),
  parentId: column.uuid('parent_id', { nullable: true }),
  authorId: column.uuid('author_id', { nullable: true }),
  slug: column.varchar('slug', 255),
  side: column.varchar('side', 8, {}, valueOf<DiffSide>()),
  line: column.int('line'),
  lineText: column.text('line_text'),
  version: column.int('version'),
  body: column.text('body'),
  html: column.text('html'),
  createdAt: column.datetime('created_at'),
  updatedAt: column.datetime('updated_at'),
  editedAt: column.datetime('edited_at', { nullable: true }),
};
export type RequestCommentRow = RowOf<typeof REQUEST_COMMENT_COLUMNS>;
