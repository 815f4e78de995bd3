import type { NotificationEntity, NotificationKind } from './entities/notification.entity';

export interface NotificationResponse {
  id: string;
  kind: NotificationKind;
  read: boolean;
  readAt: string | null;
  createdAt: string;
  /** Who caused it (null for the review reminder, or when that account is gone). */
  actor: { id: string; username: string; displayName: string } | null;
  /** The page it is about, as it was named when the notice was created. */
  page: { id: string; slug: string; title: string } | null;
  /** Kind-specific details: `revision`, `updates` (page.updated), `dueAt` (page.review_due), `format`, `counts` (import.finished). */
  data: Record<string, unknown>;
}

export interface NotificationPage {
  items: NotificationResponse[];
  nextCursor: string | null;
  /** Unread notices the caller may see, whatever the filter and page. */
  unreadCount: number;
}

export function toNotificationResponse(n: NotificationEntity): NotificationResponse {
  return {
    id: n.id,
    kind: n.kind,
    read: n.readAt !== null,
    readAt: n.readAt?.toISOString() ?? null,
    createdAt: n.createdAt.toISOString(),
    actor: n.actor
      ? { id: n.actor.id, username: n.actor.username, displayName: n.actor.displayName }
      : null,
    page: n.pageId ? { id: n.pageId, slug: n.pageSlug ?? '', title: n.pageTitle ?? '' } : null,
    data: n.data,
  };
}
