import { EventEmitter2 } from '@nestjs/event-emitter';
import { Database } from '../../src/common/database/database';
import { PAGE_UPDATED, PageUpdatedEvent } from '../../src/common/events/domain-events';
import { Outbox } from '../../src/common/events/outbox';
import { newPage } from '../support/pages';
import { createTestApp, DB_TYPE, TestApp } from '../support/test-app';
import { createUser, signedIn } from '../support/users';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * The outbox as other modules use it (docs/data-layer.md, "The outbox"): `record` writes the
 * event, its webhook deliveries and the owner's inbox notice in the caller's transaction —
 * all of them or none — and tells `@OnEvent` listeners once, after the commit.
 */
describe('Outbox.record: in the transaction, listeners after the commit', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let db: Database;
  let outbox: Outbox;
  let heard: PageUpdatedEvent[];
  let owner: string;
  let actor: string;
  let pageId: string;
  let before: { events: number; deliveries: number; notices: number };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    db = t.get(Database);
    outbox = t.get(Outbox);
    t.get(EventEmitter2).on(PAGE_UPDATED, (event: PageUpdatedEvent) => heard.push(event));
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  beforeEach(async () => {
    await t.reset();
    const admin = await signedIn(t, 'admin');
    await admin
      .post('/api/webhooks')
      .send({ url: receiver.url(), events: ['page.updated'], active: false })
      .expect(201);
    await admin
      .post('/api/webhooks')
      .send({ url: receiver.url(), events: ['page.created'] })
      .expect(201);
    owner = (await createUser(t, 'editor')).id;
    actor = (await createUser(t, 'editor')).id;
    await admin.post('/api/pages').send(newPage('outbox/page')).expect(201);
    [{ id: pageId }] = await t.dataSource.query("SELECT id FROM pages WHERE slug = 'outbox/page'");
    before = await rows();
    heard = [];
  });

  function updated(revision: number): PageUpdatedEvent {
    return {
      pageId,
      slug: 'outbox/page',
      title: 'Outbox page',
      revision,
      ownerId: owner,
      actorId: actor,
    };
  }

  async function rows() {
    const count = async (sql: string) => Number((await t.dataSource.query(sql))[0].n);
    return {
      events: await count('SELECT COUNT(*) AS n FROM events'),
      deliveries: await count('SELECT COUNT(*) AS n FROM webhook_deliveries'),
      notices: await count('SELECT COUNT(*) AS n FROM notifications'),
    };
  }

  /** What the test's transactions added to the rows of the setup. */
  async function added() {
    const now = await rows();
    return {
      events: now.events - before.events,
      deliveries: now.deliveries - before.deliveries,
      notices: now.notices - before.notices,
    };
  }

  it('commits the event, the deliveries of subscribed active webhooks and the notice together', async () => {
    const admin = await signedIn(t, 'admin');
    const subscribed = await admin
      .post('/api/webhooks')
      .send({ url: receiver.url(), events: ['page.created', 'page.updated'] })
      .expect(201);
    const event = updated(2);
    await db.transaction(async (tx) => {
      await outbox.record(tx, PAGE_UPDATED, event);
      // Inside the transaction the listeners have heard nothing yet.
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual([event]);
    expect(await added()).toEqual({ events: 1, deliveries: 1, notices: 1 });
    const [delivery] = await t.dataSource.query(
      'SELECT d.webhook_id, d.order_key, d.state, e.type, e.page_id, e.data FROM webhook_deliveries d ' +
        "JOIN events e ON e.seq = d.event_seq WHERE e.type = 'page.updated'",
    );
    expect({ ...delivery, data: JSON.parse(delivery.data) }).toEqual({
      webhook_id: subscribed.body.id,
      order_key: event.pageId,
      state: expect.any(String),
      type: 'page.updated',
      page_id: event.pageId,
      // The public data: never the owner.
      data: {
        id: event.pageId,
        slug: 'outbox/page',
        title: 'Outbox page',
        revision: 2,
        actorId: actor,
      },
    });
  });

  it('records nothing and tells no listener when the transaction rolls back', async () => {
    await expect(
      db.transaction(async (tx) => {
        await outbox.record(tx, PAGE_UPDATED, updated(2));
        throw new Error('the change fails after its event was written');
      }),
    ).rejects.toThrow('the change fails');
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([]);
    expect(await added()).toEqual({ events: 0, deliveries: 0, notices: 0 });
  });

  it('tells listeners once the outermost transaction commits, when recorded in a joined one', async () => {
    const event = updated(3);
    await db.transaction(async (tx) => {
      await db.transaction((inner) => outbox.record(inner, PAGE_UPDATED, event), tx);
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual([event]);
    expect(await added()).toEqual({ events: 1, deliveries: 0, notices: 1 });
  });

  it('tells listeners exactly when the event exists, for a transaction started inside another', async () => {
    // Not joined (no tx passed): on SQLite a savepoint of the outer transaction, which rolls
    // back with it; on MySQL a transaction of its own on another connection, committed.
    const event = updated(5);
    await expect(
      db.transaction(async () => {
        await db.transaction((inner) => outbox.record(inner, PAGE_UPDATED, event));
        throw new Error('the outer change fails');
      }),
    ).rejects.toThrow('the outer change fails');
    const { events } = await added();
    expect(heard).toEqual(events === 1 ? [event] : []);
    expect(events).toBe(DB_TYPE === 'mysql' ? 1 : 0);
  });

  it('keeps only the attempt that committed when a deadlock is retried', async () => {
    const event = updated(4);
    let attempts = 0;
    await db.transaction(async (tx) => {
      attempts += 1;
      await outbox.record(tx, PAGE_UPDATED, event);
      if (attempts === 1)
        throw Object.assign(new Error('Deadlock found'), { code: 'ER_LOCK_DEADLOCK' });
    });
    expect(attempts).toBe(2);
    expect(heard).toEqual([event]);
    expect(await added()).toEqual({ events: 1, deliveries: 0, notices: 1 });
  });
});
