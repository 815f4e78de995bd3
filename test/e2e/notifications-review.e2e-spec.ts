import { DataSource } from 'typeorm';
import { configToken } from '../../src/common/config/app-config';
import type { NotificationsConfig } from '../../src/common/config/notifications-config';
import { NotificationsService } from '../../src/notifications/notifications.service';
import { ReviewDueChecker } from '../../src/notifications/review-due.checker';
import { PageBrowseService } from '../../src/pages/page-browse.service';
import { createTestApp, TestApp } from '../support/test-app';
import { createPage, updatePage } from '../support/pages';
import { Client, signedIn } from '../support/users';

const DAY = 86_400_000;

describe('review-due notifications', () => {
  let t: TestApp;
  let owner: Client;
  let editor: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    owner = await signedIn(t, 'editor');
    editor = await signedIn(t, 'editor');
  });

  const reviewNotices = async (): Promise<
    { recipient_id: string; page_id: string; dedupe_key: string }[]
  > =>
    t
      .get(DataSource)
      .query(
        `SELECT recipient_id, page_id, dedupe_key FROM notifications WHERE kind = 'page.review_due' ORDER BY dedupe_key`,
      );

  /** A second checker, as another instance would run it, over the same database. */
  const secondChecker = () =>
    new ReviewDueChecker(
      t.get(PageBrowseService),
      t.get(NotificationsService),
      t.get<NotificationsConfig>(configToken('notifications')),
    );

  it('tells the owner once per due date, only for live pages past their date', async () => {
    const past = new Date(Date.now() - 2 * DAY).toISOString();
    const future = new Date(Date.now() + 30 * DAY).toISOString();
    await createPage(editor, 'ops/runbook', { owner: owner.user!.username, nextReviewAt: past });
    await createPage(editor, 'ops/later', { owner: owner.user!.username, nextReviewAt: future });
    await createPage(editor, 'ops/ownerless', { owner: null, nextReviewAt: past });
    const checker = t.get(ReviewDueChecker);

    await expect(checker.check()).resolves.toBe(1);
    await expect(checker.check()).resolves.toBe(0);
    const notices = await reviewNotices();
    expect(notices).toHaveLength(1);
    expect(notices[0].recipient_id).toBe(owner.user!.id);

    const inbox = (await owner.get('/api/notifications').expect(200)).body;
    expect(inbox.items).toEqual([
      {
        id: expect.any(String),
        kind: 'page.review_due',
        read: false,
        readAt: null,
        createdAt: expect.any(String),
        actor: null,
        page: { id: notices[0].page_id, slug: 'ops/runbook', title: 'Title of ops/runbook' },
        data: { dueAt: past },
      },
    ]);

    // A new due date (reviewed, then due again) is a new notice; reading the old one changes nothing.
    await owner.post(`/api/notifications/${inbox.items[0].id}/read`).expect(204);
    const nextDue = new Date(Date.now() - DAY).toISOString();
    await updatePage(owner, 'ops/runbook', { nextReviewAt: nextDue });
    await expect(checker.check()).resolves.toBe(1);
    await expect(checker.check()).resolves.toBe(0);
    expect(await reviewNotices()).toHaveLength(2);

    // Binned pages are not due for anyone.
    const admin = await signedIn(t, 'admin');
    await createPage(editor, 'ops/binned', { owner: owner.user!.username, nextReviewAt: past });
    await admin.delete('/api/pages/ops/binned').expect(204);
    await expect(checker.check()).resolves.toBe(0);
  });

  it('never duplicates a notice when several checkers run at once', async () => {
    const past = new Date(Date.now() - DAY).toISOString();
    const pages = 12;
    for (let i = 0; i < pages; i++)
      await createPage(editor, `due/page-${i}`, {
        owner: owner.user!.username,
        nextReviewAt: past,
      });
    const checkers = [t.get(ReviewDueChecker), secondChecker(), secondChecker()];
    for (let round = 0; round < 3; round++) {
      await Promise.all(checkers.map((c) => c.check()));
    }
    const notices = await reviewNotices();
    expect(notices).toHaveLength(pages);
    expect(new Set(notices.map((n) => n.page_id)).size).toBe(pages);
    const inbox = (await owner.get('/api/notifications?limit=100').expect(200)).body;
    expect(inbox.unreadCount).toBe(pages);
  });

  it('reads due pages batch by batch until all are seen (ties on the due date included)', async () => {
    const sameDay = new Date(Date.now() - 3 * DAY).toISOString();
    for (let i = 0; i < 5; i++)
      await createPage(editor, `batch/same-${i}`, {
        owner: owner.user!.username,
        nextReviewAt: sameDay,
      });
    for (let i = 0; i < 3; i++)
      await createPage(editor, `batch/other-${i}`, {
        owner: i === 1 ? null : owner.user!.username,
        nextReviewAt: new Date(Date.now() - (i + 1) * DAY).toISOString(),
      });
    const checker = secondChecker();
    checker.batchSize = 2;
    await expect(checker.check()).resolves.toBe(7);
    await expect(checker.check()).resolves.toBe(0);
    const notices = await reviewNotices();
    expect(notices).toHaveLength(7);
    expect(new Set(notices.map((n) => n.page_id)).size).toBe(7);
  });

  it('keeps the dedupe guarantee in the database itself, not only in the checker', async () => {
    const service = t.get(NotificationsService);
    const notice = {
      recipientId: owner.user!.id,
      kind: 'page.review_due' as const,
      dedupeKey: 'page.review_due:x:2026-01-01T00:00:00.000Z',
    };
    await Promise.all([service.create(notice), service.create(notice), service.create(notice)]);
    expect(await reviewNotices()).toHaveLength(1);
  });
});

describe('review-due schedule', () => {
  it('runs the checker every REVIEW_CHECK_INTERVAL_SECONDS', async () => {
    const t = await createTestApp({ REVIEW_CHECK_INTERVAL_SECONDS: '1' });
    try {
      const owner = await signedIn(t, 'editor');
      await createPage(owner, 'scheduled', {
        owner: owner.user!.username,
        nextReviewAt: new Date(Date.now() - DAY).toISOString(),
      });
      const started = Date.now();
      let items: { kind: string }[] = [];
      while (items.length === 0 && Date.now() - started < 4000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        items = (await owner.get('/api/notifications').expect(200)).body.items;
      }
      expect(items.map((n) => n.kind)).toEqual(['page.review_due']);
    } finally {
      await t.close();
    }
  });
});
