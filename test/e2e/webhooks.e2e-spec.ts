import { Webhook } from 'standardwebhooks';
import { eventually } from '../support/eventually';
import { createPage, updatePage } from '../support/pages';
import { problem, fieldErrors, validationProblem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, signedIn } from '../support/users';
import { WebhookReceiver } from '../support/webhook-receiver';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const FAST = { WEBHOOK_RETRY_BASE_MS: '150', WEBHOOK_POLL_MS: '50' };

describe('webhooks', () => {
  let t: TestApp;
  let admin: Client;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', ...FAST });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    receiver = await WebhookReceiver.start();
  });
  afterEach(() => receiver.close());

  async function subscribe(body: Record<string, unknown> = {}) {
    const res = await admin
      .post('/api/webhooks')
      .send({ url: receiver.url(), events: ['page.created', 'page.updated'], ...body })
      .expect(201);
    expect(res.headers.location).toBe(`/api/webhooks/${res.body.id}`);
    return res.body as { id: string; secret: string };
  }

  async function deliveries(id: string) {
    return (await admin.get(`/api/webhooks/${id}/deliveries`).expect(200)).body.items as {
      id: string;
      state: string;
      attempts: { statusCode: number | null; error: string | null }[];
    }[];
  }

  it('is for administrators only: 401 without credentials, 403 for editors', async () => {
    const editor = await signedIn(t, 'editor');
    const { id } = await subscribe();
    for (const client of [anonymous(t), editor]) {
      const status = client === editor ? 403 : 401;
      const code = client === editor ? 'insufficient_role' : 'unauthenticated';
      for (const res of [
        await client.get('/api/webhooks'),
        await client.post('/api/webhooks').send({ url: receiver.url(), events: ['page.created'] }),
        await client.get(`/api/webhooks/${id}`),
        await client.patch(`/api/webhooks/${id}`).send({ active: false }),
        await client.delete(`/api/webhooks/${id}`),
        await client.get(`/api/webhooks/${id}/deliveries`),
        await client.post(`/api/webhooks/${id}/deliveries/x/redeliver`),
      ]) {
        expect(res.status).toBe(status);
        expect(res.body).toEqual(problem(status, code));
      }
    }
  });

  it('creates with a generated whsec_ secret shown once, lists, changes and deletes', async () => {
    const created = await admin
      .post('/api/webhooks')
      .send({ url: receiver.url(), events: ['page.created'] })
      .expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: receiver.url(),
      events: ['page.created'],
      active: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      createdAt: ISO,
      updatedAt: ISO,
    });
    expect(Buffer.from(created.body.secret.slice(6), 'base64')).toHaveLength(32);
    const id = created.body.id as string;
    const { secret: _secret, ...shown } = created.body;
    expect((await admin.get(`/api/webhooks/${id}`).expect(200)).body).toEqual(shown);
    expect((await admin.get('/api/webhooks').expect(200)).body).toEqual({
      items: [shown],
      nextCursor: null,
    });
    const changed = await admin
      .patch(`/api/webhooks/${id}`)
      .send({ active: false, events: ['page.binned', 'import.finished'] })
      .expect(200);
    expect(changed.body).toEqual({
      ...shown,
      active: false,
      events: ['page.binned', 'import.finished'],
      updatedAt: ISO,
    });
    await admin.delete(`/api/webhooks/${id}`).expect(204);
    expect((await admin.get(`/api/webhooks/${id}`)).body).toEqual(
      problem(404, 'webhook_not_found'),
    );
    expect(await t.dataSource.query('SELECT id FROM webhooks')).toEqual([]);
  });

  it('refuses bad input with field problems and writes nothing', async () => {
    for (const [body, field, code] of [
      [{ url: 'ftp://example.com/x', events: ['page.created'] }, 'url', 'invalid_url'],
      [{ url: 'not a url', events: ['page.created'] }, 'url', 'invalid_url'],
      [
        { url: receiver.url(), events: ['page.created'], secret: 'abc' },
        'secret',
        'invalid_secret',
      ],
      [
        { url: receiver.url(), events: ['page.created'], secret: `whsec_${'QQ=='}` },
        'secret',
        'invalid_secret',
      ],
    ] as const) {
      const res = await admin.post('/api/webhooks').send(body).expect(422);
      expect(res.body).toEqual(
        problem(422, 'validation_failed', {
          errors: [expect.objectContaining({ field, code })],
        }),
      );
    }
    const invalid = await admin
      .post('/api/webhooks')
      .send({ url: receiver.url(), events: ['page.exploded'] })
      .expect(422);
    expect(invalid.body).toEqual(fieldErrors({ field: 'events', code: 'is_in' }));
    expect(await t.dataSource.query('SELECT id FROM webhooks')).toEqual([]);
  });

  it('delivers page events signed per Standard Webhooks, in order per page', async () => {
    const { id, secret } = await subscribe({
      events: ['page.created', 'page.updated', 'page.binned', 'page.restored', 'page.purged'],
    });
    const page = await createPage(admin, 'docs/hooks');
    await updatePage(admin, 'docs/hooks', { content: '# Hooks\n\nTwo' });
    await updatePage(admin, 'docs/hooks', { content: '# Hooks\n\nThree' });
    await admin.delete('/api/pages/docs/hooks').expect(204);
    const bin = await admin.get('/api/bin').expect(200);
    const binId = bin.body.items[0].id as string;
    await admin.post(`/api/bin/${binId}/restore`).expect(200);
    await admin.delete('/api/pages/docs/hooks').expect(204);
    await admin.delete(`/api/bin/${binId}`).expect(204);

    await eventually(() => expect(receiver.received).toHaveLength(7), 10_000);
    const verifier = new Webhook(secret);
    for (const { headers, body } of receiver.received) {
      expect(() =>
        verifier.verify(body, {
          'webhook-id': String(headers['webhook-id']),
          'webhook-timestamp': String(headers['webhook-timestamp']),
          'webhook-signature': String(headers['webhook-signature']),
        }),
      ).not.toThrow();
      expect(headers['content-type']).toBe('application/json');
    }
    // A wrong secret does not verify: the signature depends on it.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        receiver.received[0].body,
        receiver.received[0].headers as Record<string, string>,
      ),
    ).toThrow();
    expect(receiver.payloads().map((p) => p.type)).toEqual([
      'page.created',
      'page.updated',
      'page.updated',
      'page.binned',
      'page.restored',
      'page.binned',
      'page.purged',
    ]);
    expect(receiver.payloads()[1]).toEqual({
      type: 'page.updated',
      timestamp: ISO,
      data: {
        id: expect.any(String),
        slug: 'docs/hooks',
        title: page.title,
        revision: 2,
        summary: null,
        actorId: admin.user!.id,
      },
    });
    const list = await deliveries(id);
    expect(list).toHaveLength(7);
    expect(list.every((d) => d.state === 'delivered')).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(
      new Set(list.map((d) => d.id)),
    );
  });

  it('retries after the receiver answers 500 with the same webhook-id, recording each attempt', async () => {
    const { id } = await subscribe();
    receiver.answer(500, 500);
    await createPage(admin, 'retried');
    await eventually(() => expect(receiver.received).toHaveLength(3), 15_000);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    const [delivery] = await eventually(async () => {
      const list = await deliveries(id);
      expect(list[0].state).toBe('delivered');
      return list;
    });
    expect(delivery.id).toBe(ids[0]);
    expect(delivery.attempts).toEqual([
      { at: ISO, statusCode: 500, error: 'receiver answered 500', durationMs: expect.any(Number) },
      { at: ISO, statusCode: 500, error: 'receiver answered 500', durationMs: expect.any(Number) },
      { at: ISO, statusCode: 200, error: null, durationMs: expect.any(Number) },
    ]);
    // Backoff: the second retry waited at least twice the base (150 ms, then 300 ms).
    const times = delivery.attempts.map((a) => Date.parse((a as unknown as { at: string }).at));
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(300);
  });

  it('delivers after a restart what the receiver refused before it (at least once)', async () => {
    const { id, secret } = await subscribe();
    // Every attempt before the restart fails; the retry waits long enough to cross it.
    receiver.answer(...Array<number>(50).fill(500));
    await t.restart({
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '60000',
      WEBHOOK_POLL_MS: '50',
    });
    admin = await signedIn(t, 'admin');
    await createPage(admin, 'survives');
    await eventually(() => expect(receiver.received).toHaveLength(1), 10_000);
    await t.restart({ WEBHOOK_ALLOW_PRIVATE: 'true', ...FAST });
    receiver.clearAnswers();
    // The stored retry time is a minute away: redeliver is not needed, an earlier retry is.
    await t.dataSource.query('UPDATE webhook_deliveries SET next_attempt_at = created_at');
    await eventually(() => expect(receiver.received).toHaveLength(2), 10_000);
    expect(receiver.received[1].headers['webhook-id']).toBe(
      receiver.received[0].headers['webhook-id'],
    );
    new Webhook(secret).verify(
      receiver.received[1].body,
      receiver.received[1].headers as Record<string, string>,
    );
    await eventually(async () => expect((await deliveries(id))[0].state).toBe('delivered'));
  });

  it('redelivers a delivered message with the same webhook-id; 404 for unknown ones', async () => {
    const { id } = await subscribe();
    await createPage(admin, 'again');
    await eventually(() => expect(receiver.received).toHaveLength(1), 10_000);
    const [delivery] = await eventually(async () => {
      const list = await deliveries(id);
      expect(list[0].state).toBe('delivered');
      return list;
    });
    const res = await admin
      .post(`/api/webhooks/${id}/deliveries/${delivery.id}/redeliver`)
      .expect(202);
    expect(res.body).toEqual(
      expect.objectContaining({ id: delivery.id, state: 'pending', tries: 0 }),
    );
    await eventually(() => expect(receiver.received).toHaveLength(2), 10_000);
    expect(receiver.received[1].headers['webhook-id']).toBe(delivery.id);
    const missing = await admin.post(`/api/webhooks/${id}/deliveries/nope/redeliver`).expect(404);
    expect(missing.body).toEqual(problem(404, 'delivery_not_found'));
  });

  it('sends nothing to inactive webhooks or for unsubscribed events', async () => {
    const { id } = await subscribe({ events: ['page.binned'] });
    const inactive = await subscribe({ active: false });
    await createPage(admin, 'quiet');
    await admin.delete('/api/pages/quiet').expect(204);
    await eventually(() => expect(receiver.payloads().map((p) => p.type)).toEqual(['page.binned']));
    expect(await deliveries(inactive.id)).toEqual([]);
    expect((await deliveries(id)).map((d) => d.state)).toEqual(['delivered']);
  });
});

describe('webhooks: server-side request forgery guard', () => {
  let t: TestApp;
  let admin: Client;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp(FAST);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
  });

  it('refuses loopback and private destinations, by address and by name', async () => {
    for (const url of [
      receiver.url(),
      receiver.url('localhost'),
      `http://[::1]:${receiver.port}/`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/`,
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0:80/',
    ]) {
      const res = await admin.post('/api/webhooks').send({ url, events: ['page.created'] });
      expect({ url, status: res.status }).toEqual({ url, status: 422 });
      expect(res.body).toEqual(
        problem(422, 'validation_failed', {
          errors: [expect.objectContaining({ field: 'url', code: 'private_destination' })],
        }),
      );
    }
    expect(await t.dataSource.query('SELECT id FROM webhooks')).toEqual([]);
  });

  /** The first attempt of the newest delivery of a webhook, once there is one. */
  async function firstAttempt(id: string): Promise<unknown> {
    const [delivery] = await eventually(async () => {
      const list = (await admin.get(`/api/webhooks/${id}/deliveries`).expect(200)).body.items;
      expect(list[0].attempts.length).toBeGreaterThanOrEqual(1);
      return list;
    }, 10_000);
    return delivery.attempts[0];
  }

  /**
   * Issue 28 item 3: IPv6 spellings of private, loopback and link-local IPv4 addresses, in
   * every form that carries an IPv4 address (9 forms × 5 targets), plus the three.
   */
  function embeddedSpellings(port: number): string[] {
    const targets: [number, number, number, number][] = [
      [127, 0, 0, 1],
      [10, 0, 0, 1],
      [192, 168, 1, 1],
      [169, 254, 169, 254],
      [172, 16, 0, 1],
    ];
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    const spellings: string[] = [];
    for (const [a, b, c, d] of targets) {
      const dotted = `${a}.${b}.${c}.${d}`;
      const [high, low] = [hex(a, b), hex(c, d)];
      const teredo = [hex(a ^ 255, b ^ 255), hex(c ^ 255, d ^ 255)];
      spellings.push(
        `::ffff:${dotted}`,
        `0:0:0:0:0:ffff:${high}:${low}`,
        `::${dotted}`,
        `::${high}:${low}`,
        `::ffff:0:${dotted}`,
        `64:ff9b::${dotted}`,
        `64:ff9b:1::${high}:${low}`,
        `2002:${high}:${low}::1`,
        `2001:0:4136:e378:8000:63bf:${teredo[0]}:${teredo[1]}`,
      );
    }
    spellings.push('::127.0.0.1', '64:ff9b:1::7f00:1', '2002:7f00:1::');
    return spellings.map((address) => `http://[${address}]:${port}/hook`);
  }

  it('issue 28 item 3: refuses IPv6 spellings that embed or map a private IPv4 address, at save', async () => {
    const urls = embeddedSpellings(receiver.port);
    expect(urls.length).toBeGreaterThanOrEqual(40);
    for (const url of urls) {
      const res = await admin.post('/api/webhooks').send({ url, events: ['page.created'] });
      expect({ url, status: res.status }).toEqual({ url, status: 422 });
      expect(res.body).toEqual(
        validationProblem({
          field: 'url',
          code: 'private_destination',
          message: 'url points to a private or loopback address, which webhooks may not reach.',
        }),
      );
    }
    // Refused on change too, and the webhook keeps its address.
    const ok = await admin
      .post('/api/webhooks')
      .send({ url: 'http://[2002:808:808::1]/hook', events: ['page.created'], active: false })
      .expect(201);
    const patched = await admin
      .patch(`/api/webhooks/${ok.body.id}`)
      .send({ url: `http://[::127.0.0.1]:${receiver.port}/` });
    expect(patched.status).toBe(422);
    expect(
      await t.dataSource.query(`SELECT url FROM webhooks WHERE id = '${ok.body.id as string}'`),
    ).toEqual([{ url: 'http://[2002:808:808::1]/hook' }]);
  });

  it('issue 28 item 3: checks again at delivery: saved IPv6 spellings of loopback are never tried', async () => {
    // Saved while private destinations were allowed; delivered with them refused.
    await t.restart({ ...FAST, WEBHOOK_ALLOW_PRIVATE: 'true' });
    admin = await signedIn(t, 'admin');
    const ids: string[] = [];
    for (const host of ['[::127.0.0.1]', '[64:ff9b:1::7f00:1]', '[2002:7f00:1::]']) {
      const res = await admin
        .post('/api/webhooks')
        .send({ url: `http://${host}:${receiver.port}/`, events: ['page.created'] })
        .expect(201);
      ids.push(res.body.id as string);
    }
    await t.restart(FAST);
    admin = await signedIn(t, 'admin');
    await createPage(admin, 'embedded-v4');
    for (const id of ids) {
      expect(await firstAttempt(id)).toEqual(
        expect.objectContaining({
          statusCode: null,
          error: expect.stringMatching(/^destination address .* is private or loopback/),
        }),
      );
    }
    expect(receiver.received).toEqual([]);
  });

  it('checks the address it connects to: a name that now resolves to loopback is not reached', async () => {
    // Saved while private destinations were allowed (as if the name resolved to a public
    // address then); now "localhost" resolves to loopback at delivery time.
    await t.restart({ ...FAST, WEBHOOK_ALLOW_PRIVATE: 'true' });
    admin = await signedIn(t, 'admin');
    const { id } = (
      await admin
        .post('/api/webhooks')
        .send({ url: receiver.url('localhost'), events: ['page.created'] })
        .expect(201)
    ).body as { id: string };
    await t.restart(FAST);
    admin = await signedIn(t, 'admin');
    await createPage(admin, 'rebinding');
    expect(await firstAttempt(id)).toEqual(
      expect.objectContaining({
        statusCode: null,
        error: expect.stringMatching(/private or loopback/),
      }),
    );
    expect(receiver.received).toEqual([]);
  });
});
