import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Brackets, In, IsNull, Repository, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { UsersService } from '../auth/users.service';
import type { AuthUser } from '../common/auth/auth-user';
import { cursorString, PageRequest, toPage } from '../common/http/pagination';
import { NotFoundProblem } from '../common/problems/problem';
import { PageAccessService } from '../pages/page-access.service';
import { NotificationEntity, NotificationKind } from './entities/notification.entity';
import { NotificationPage, toNotificationResponse } from './notifications.mapper';

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
    @InjectRepository(NotificationEntity)
    private readonly notifications: Repository<NotificationEntity>,
    private readonly access: PageAccessService,
    private readonly users: UsersService,
  ) {}

  async list(user: AuthUser, page: PageRequest, unreadOnly: boolean): Promise<NotificationPage> {
    const query = this.inbox(user)
      .leftJoinAndSelect('n.actor', 'actor')
      .orderBy('n.createdAt', 'DESC')
      .addOrderBy('n.id', 'DESC')
      .limit(page.limit + 1);
    if (unreadOnly) query.andWhere('n.read_at IS NULL');
    if (page.cursor) {
      const at = new Date(cursorString(page.cursor, 'at'));
      const id = cursorString(page.cursor, 'id');
      if (Number.isNaN(at.getTime()))
        return { items: [], nextCursor: null, unreadCount: await this.unreadCount(user) };
      query.andWhere('(n.created_at < :at OR (n.created_at = :at AND n.id < :id))', { at, id });
    }
    const [rows, unreadCount] = await Promise.all([query.getMany(), this.unreadCount(user)]);
    const result = toPage(rows, page.limit, toNotificationResponse, (n) => ({
      at: n.createdAt.toISOString(),
      id: n.id,
    }));
    return { ...result, unreadCount };
  }

  unreadCount(user: AuthUser): Promise<number> {
    return this.inbox(user).andWhere('n.read_at IS NULL').getCount();
  }

  /** Idempotent; another user's notice is 404 like a missing one. */
  async markRead(user: AuthUser, id: string, now = new Date()): Promise<void> {
    const result = await this.notifications.update(
      { id, recipientId: user.id, readAt: IsNull() },
      { readAt: now },
    );
    if (result.affected) return;
    if (!(await this.notifications.existsBy({ id, recipientId: user.id })))
      throw new NotFoundProblem('notification');
  }

  async markAllRead(user: AuthUser, now = new Date()): Promise<void> {
    await this.notifications.update({ recipientId: user.id, readAt: IsNull() }, { readAt: now });
  }

  /** Inserts a notice; with a dedupe key an existing one wins and nothing is inserted. */
  async create(input: NewNotification, now = new Date()): Promise<void> {
    const row = this.notifications.create({
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
    });
    await this.notifications
      .createQueryBuilder()
      .insert()
      .into(NotificationEntity)
      .values(row as QueryDeepPartialEntity<NotificationEntity>)
      // The unique (recipient, dedupe key) index decides between concurrent inserts, on any instance.
      .orIgnore()
      .execute();
  }

  /**
   * Folds another change into the recipient's unread notice about the same page (so ten edits
   * are one item saying "10 updates"); answers false when there is none to fold into.
   */
  async foldPageUpdate(
    recipientId: string,
    page: { id: string; slug: string; title: string },
    actorId: string,
    revision: number,
    now = new Date(),
  ): Promise<boolean> {
    const open = await this.notifications.findOneBy({
      recipientId,
      kind: 'page.updated',
      pageId: page.id,
      readAt: IsNull(),
    });
    if (!open) return false;
    const updates = (typeof open.data.updates === 'number' ? open.data.updates : 1) + 1;
    const result = await this.notifications.update(
      { id: open.id, readAt: IsNull() },
      {
        actorId,
        pageSlug: page.slug,
        pageTitle: page.title,
        data: { revision, updates },
        createdAt: now,
      },
    );
    return Boolean(result.affected);
  }

  /** The dedupe keys among `keys` that already exist (so a checker inserts only the new ones). */
  async existingDedupeKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.notifications.find({
      select: { dedupeKey: true },
      where: { dedupeKey: In(keys) },
    });
    return new Set(rows.map((r) => r.dedupeKey!));
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
    const query = this.notifications.manager
      .createQueryBuilder()
      .select('p.id', 'id')
      .from('pages', 'p')
      .where('p.id = :pageId', { pageId });
    this.access.restrictToVisibleIfLive(query, viewer, 'p');
    return (await query.getRawOne()) !== undefined;
  }

  /**
   * The caller's notices that they may see now (PageAccessService's rule, applied in SQL, so a
   * change of groups takes effect at once): about no page; about a live page visible to them;
   * or, for `page.binned`, about a page (still stored, live or binned) they would see if it
   * were live. A purged page's bin notice is hidden: its groups are no longer known.
   */
  private inbox(user: AuthUser): SelectQueryBuilder<NotificationEntity> {
    return this.notifications
      .createQueryBuilder('n')
      .leftJoin('pages', 'p', 'p.id = n.page_id')
      .where('n.recipient_id = :recipientId', { recipientId: user.id })
      .andWhere(
        new Brackets((w) => {
          w.where('n.page_id IS NULL')
            .orWhere(
              new Brackets((visible) =>
                this.access.restrictToVisible(visible.where("n.kind <> 'page.binned'"), user, 'p'),
              ),
            )
            .orWhere(
              new Brackets((binned) =>
                this.access.restrictToVisibleIfLive(
                  binned.where("n.kind = 'page.binned'").andWhere('p.id IS NOT NULL'),
                  user,
                  'p',
                ),
              ),
            );
        }),
      );
  }
}
