import type { NotificationData, NotificationResponse } from './dto/notification-response.dto';
import type { NotificationEntity } from './entities/notification.entity';

// The response shapes (and their OpenAPI schemas) are in dto/notification-response.dto.ts.
export type { NotificationResponse } from './dto/notification-response.dto';
export type { NotificationList } from './dto/notification-response.dto';

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
    data: n.data as NotificationData,
  };
}
