import { EntitySchema } from 'typeorm';
import type { UserRef } from '../../auth/public-sql';
import { column, entityColumns, RowOf, valueOf } from '../../common/database/column-defs';

export const NOTIFICATION_KINDS = [
  'page.updated',
  'page.binned',
  'page.moved',
  'page.review_due',
  'import.finished',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** One item of a user's inbox. Page slug and title are kept as they were when it was created. */
export const NOTIFICATION_COLUMNS = {
  id: column.uuid('id', { primary: true }),
  recipientId: column.uuid('recipient_id'),
  kind: column.varchar('kind', 32, {}, valueOf<NotificationKind>()),
  pageId: column.uuid('page_id', { nullable: true }),
  pageSlug: column.varchar('page_slug', 255, { nullable: true }),
  pageTitle: column.varchar('page_title', 255, { nullable: true }),
  actorId: column.uuid('actor_id', { nullable: true }),
  data: column.json('data', {}, valueOf<Record<string, unknown>>()),
  /** Makes the notice unique per recipient (review due: page + due date). */
  dedupeKey: column.varchar('dedupe_key', 128, { nullable: true }),
  readAt: column.datetime('read_at', { nullable: true }),
  createdAt: column.datetime('created_at'),
};

export type NotificationRecord = RowOf<typeof NOTIFICATION_COLUMNS>;

/** A notice as the inbox lists it: with who caused it (null when none, or the account is gone). */
export type NotificationEntity = NotificationRecord & { actor?: UserRef | null };
export const NotificationEntity = new EntitySchema<NotificationRecord>({
  name: 'NotificationEntity',
  tableName: 'notifications',
  columns: entityColumns(NOTIFICATION_COLUMNS),
});
