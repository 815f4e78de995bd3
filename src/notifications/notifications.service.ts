import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthUser } from '../common/auth/auth-user';
import type { Tx } from '../common/database/database';
import { cursorPosition, ListRequest, toPaged } from '../common/http/pagination';
import { NotFoundProblem } from '../common/problems/problem';
import { PageAccessService, PagesService } from '../pages/public-api';
import { UsersService } from '../auth/public-api';
import { NotificationKind } from './entities/notification.entity';
import {
  NotificationList,
  NotificationResponse,
  toNotificationResponse,
} from './notifications.mapper';
import { Inbox, NotificationsRepository } from './notifications.repository';

export interface NewNotification {
  recipientId: string;
  kind: NotificationKind;
  page?: { id: string; slug: string; title: string };
  actorId?: string | null;
  data?: Record<string, unknown>;
  /** Makes the notice unique per recipient: a second insert with the same key is ignored. */
  dedupeKey?: string;
}

/** The inbox: listing with visibility, read state, and the inserts the producers use. */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly access: PageAccessService,
    private readonly pages: PagesService,
    private readonly users: UsersService,
  ) {}

  async list(user: AuthUser, page: ListRequest, unreadOnly: boolean): Promise<NotificationList> {
    const after = cursorPosition(page.cursor);
    const [rows, unreadCount] = await Promise.all([
      this.notifications.list(this.inbox(user, unreadOnly), after, page.limit + 1),
      this.unreadCount(user),
    ]);
    const result = toPaged(rows, page.limit, toNotificationResponse, (n) => ({
      at: n.createdAt.toISOString(),
      id: n.id,
    }));
    return { ...result, unreadCount };
  }

  /**
   * The digest's items: `user`'s unread notices created after `since` that they may still see
   * now, newest first, with the count of all such notices.
   */
  async unreadSince(
    user: AuthUser,
    since: Date,
    limit: number,
  ): Promise<{ items: NotificationResponse[]; total: number }> {
    const inbox = { ...this.inbox(user, true), createdAfter: since };
    const [rows, total] = await Promise.all([
      this.notifications.list(inbox, undefined, limit),
      this.notifications.count(inbox),
    ]);
    return { items: rows.map(toNotificationResponse), total };
  }

  unreadCount(user: AuthUser): Promise<number> {
    return this.notifications.count(this.inbox(user, true));
  }

  /** Idempotent; another user's notice is 404 like a missing one. */
  async markRead(user: AuthUser, id: string, now = new Date()): Promise<void> {
    if (await this.notifications.markRead(id, user.id, now)) return;
    if (!(await this.notifications.exists(id, user.id))) throw new NotFoundProblem('notification');
  }

  async markAllRead(user: AuthUser, now = new Date()): Promise<void> {
    await this.notifications.markAllRead(user.id, now);
  }

  /**
   * Inserts a notice (in `tx`: with the change it is about); with a dedupe key an existing one
   * wins and nothing is inserted.
   */
  async create(input: NewNotification, now = new Date(), tx?: Tx): Promise<void> {
    // The unique (recipient, dedupe key) index decides between concurrent inserts, on any instance.
    await this.notifications.insertUnlessDuplicate(
      {
        id: randomUUID(),
        recipientId: input.recipientId,
        kind: input.kind,
        pageId: input.page?.id ?? null,
        pageSlug: input.page?.slug ?? null,
        pageTitle: input.page?.title ?? null,
        actorId: input.actorId ?? null,
        data: input.data ?? {},
        dedupeKey: input.dedupeKey ?? null,
        readAt: null,
        createdAt: now,
      },
      tx,
    );
  }

  /**
   * Folds another change into the recipient's unread notice about the same page (so ten edits
   * are one item saying "10 updates"); answers false when there is none to fold into.
   */
  async foldPageUpdate(
    recipientId: string,
    page: { id: string; slug: string; title: string },
    actorId: string,
    data: { revision: number; summary: string | null },
    now = new Date(),
    tx?: Tx,
  ): Promise<boolean> {
    const open = await this.notifications.findUnreadPageUpdate(recipientId, page.id, tx);
    if (!open) return false;
    const updates = (typeof open.data.updates === 'number' ? open.data.updates : 1) + 1;
    return this.notifications.updateUnread(
      open.id,
      {
        actorId,
        pageSlug: page.slug,
        pageTitle: page.title,
        data: { ...data, updates },
        createdAt: now,
      },
      tx,
    );
  }

  /** The dedupe keys among `keys` that already exist (so a checker inserts only the new ones). */
  existingDedupeKeys(keys: string[]): Promise<Set<string>> {
    return this.notifications.existingDedupeKeys(keys);
  }

  /**
   * Whether a page (live or in the bin) is one the user would see if it were live, by
   * PageAccessService's rule and the user's current role and groups; false for a disabled or
   * deleted user and for a purged page.
   */
  async recipientWouldSee(recipientId: string, pageId: string): Promise<boolean> {
    const user = await this.users.findActiveById(recipientId);
    if (!user) return false;
    const viewer = { role: user.role, groups: (user.groups ?? []).map((g) => g.name) };
    return this.pages.wouldSee(pageId, viewer);
  }

  /**
   * The caller's notices that they may see now (PageAccessService's rule, applied in SQL, so a
   * change of groups takes effect at once): about no page; about a live page visible to them;
   * or, for `page.binned`, about a page (still stored, live or binned) they would see if it
   * were live. A purged page's bin notice is hidden: its groups are no longer known.
   */
  private inbox(user: AuthUser, unreadOnly: boolean): Inbox {
    const live = this.access.pageVisibleSql(user, 'n.page_id');
    const ifLive = this.access.pageVisibleSql(user, 'n.page_id', { evenIfBinned: true });
    return {
      recipientId: user.id,
      unreadOnly,
      visible: {
        sql:
          `n.page_id IS NULL OR (n.kind <> 'page.binned' AND ${live.sql}) ` +
          `OR (n.kind = 'page.binned' AND ${ifLive.sql})`,
        params: [...live.params, ...ifLive.params],
      },
    };
  }
}
