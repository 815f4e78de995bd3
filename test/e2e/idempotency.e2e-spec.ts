import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Database } from '../../src/common/database/database';
import { IdempotencyStore } from '../../src/common/idempotency/idempotency.store';
import { problem } from '../support/problems';
import { createPeerApp, createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { count, postImport, zip } from '../support/import-helpers';

const FOLDER = zip({
  'index.md': '# Handbook\n\nStart with [installing](howto/install.md).\n',
  'howto/install.md': '# Installing\n\nRun `npm ci`.\n',
  'howto/faq.md': '# FAQ\n\nAsk.\n',
});

async function keyRows(t: TestApp): Promise<number> {
  const [row] = await t.dataSource.query('SELECT COUNT(*) AS n FROM idempotency_keys');
  return Number(row.n);
}

/** Moves every key's expiry a second into the past, as 24 hours later. */
async function expireKeys(t: TestApp): Promise<void> {
  const past = new Date(Date.now() - 1000);
  await t.dataSource.query('UPDATE idempotency_keys SET expires_at = ?', [
    t.dataSource.options.type === 'mysql'
      ? past
      : past.toISOString().replace('T', ' ').replace('Z', ''),
  ]);
}

describe('Idempotency-Key on POST /api/import and POST /api/pages', () => {
  let t: TestApp;
  let admin: Client;
  let bearer: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
    bearer = await admin.withToken();
  });

  it('writes an import once under 10 concurrent retries and replays its answer to all', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        // Each request has a boundary of its own, and the fields come in another order for
        // half of them: neither changes the request.
        const request = bearer.post('/api/import').set('Idempotency-Key', '"ci-run-42"');
        if (i % 2 === 0) request.field('format', 'markdown').field('prefix', 'handbook');
        else request.field('prefix', 'handbook').field('format', 'markdown');
        return request.attach('files', FOLDER, 'handbook.zip');
      }),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[0].body);
    }
    expect(answers[0].body.counts).toMatchObject({ created: 3, replaced: 0, unchanged: 0 });
    const replayed = answers.filter((a) => a.headers['idempotent-replayed'] === 'true');
    expect(replayed).toHaveLength(9);
    expect(await count(t, 'pages')).toBe(3);
    expect(await count(t, 'page_revisions')).toBe(3);
    // The retries' uploads are not left behind.
    expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([]);
  });

  it('replays an async import: the same 202, Location and job', async () => {
    const send = () =>
      postImport(bearer, {
        format: 'markdown',
        prefix: 'handbook',
        files: [{ name: 'handbook.zip', data: FOLDER }],
        fields: { async: 'true' },
      }).set('Idempotency-Key', 'job-1');
    const first = await send().expect(202);
    const again = await send().expect(202);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers.location).toBe(`/api/import/jobs/${first.body.id}`);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const [jobs] = await t.dataSource.query('SELECT COUNT(*) AS n FROM import_jobs');
    expect(Number(jobs.n)).toBe(1);
  });

  it('refuses the same key with other files or fields: 422 idempotency_key_reused', async () => {
    await postImport(bearer, {
      format: 'markdown',
      files: [{ name: 'a.zip', data: FOLDER }],
    })
      .set('Idempotency-Key', 'k')
      .expect(200);
    const otherBytes = await postImport(bearer, {
      format: 'markdown',
      files: [{ name: 'a.zip', data: zip({ 'index.md': '# Other\n' }) }],
    })
      .set('Idempotency-Key', 'k')
      .expect(422);
    expect(otherBytes.body).toEqual(problem(422, 'idempotency_key_reused'));
    const otherName = await postImport(bearer, {
      format: 'markdown',
      files: [{ name: 'b.zip', data: FOLDER }],
    }).set('Idempotency-Key', 'k');
    expect(otherName.status).toBe(422);
    const otherField = await postImport(bearer, {
      format: 'markdown',
      dryRun: true,
      files: [{ name: 'a.zip', data: FOLDER }],
    }).set('Idempotency-Key', 'k');
    expect(otherField.status).toBe(422);
    // The key on the other route is another request too.
    const page = await bearer
      .post('/api/pages')
      .set('Idempotency-Key', 'k')
      .send({ slug: 'x', title: 'X', content: '' });
    expect(page.body).toEqual(problem(422, 'idempotency_key_reused'));
    expect(await count(t, 'pages')).toBe(3);
  });

  it('creates a page once: quoted and bare keys, JSON in any key order', async () => {
    const first = await admin
      .post('/api/pages')
      .set('Idempotency-Key', '"page-1"')
      .send({ slug: 'guides/setup', title: 'Setup', content: 'Hello', tags: ['a', 'b'] })
      .expect(201);
    const again = await admin
      .post('/api/pages')
      .set('Idempotency-Key', 'page-1')
      .set('Content-Type', 'application/json')
      .send('{"tags":["a","b"],  "content":"Hello","title":"Setup","slug":"guides/setup"}')
      .expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe('/api/pages/guides/setup');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await count(t, 'pages')).toBe(1);

    // Same key, another value (array order counts): 422, nothing written.
    const reused = await admin
      .post('/api/pages')
      .set('Idempotency-Key', 'page-1')
      .send({ slug: 'guides/setup', title: 'Setup', content: 'Hello', tags: ['b', 'a'] })
      .expect(422);
    expect(reused.body).toEqual(problem(422, 'idempotency_key_reused'));
    expect(await count(t, 'pages')).toBe(1);
  });

  it('keeps keys per caller: another user and a token of the same user are independent', async () => {
    const editor = await signedIn(t, 'editor');
    await admin
      .post('/api/pages')
      .set('Idempotency-Key', 'same')
      .send({ slug: 'one', title: 'One', content: '' })
      .expect(201);
    const other = await editor
      .post('/api/pages')
      .set('Idempotency-Key', 'same')
      .send({ slug: 'two', title: 'Two', content: '' })
      .expect(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    const viaToken = await bearer
      .post('/api/pages')
      .set('Idempotency-Key', 'same')
      .send({ slug: 'three', title: 'Three', content: '' })
      .expect(201);
    expect(viaToken.body.slug).toBe('three');
    expect(await count(t, 'pages')).toBe(3);
  });

  it('refuses malformed keys with 400', async () => {
    for (const key of ['"unterminated', '', 'two words', '"a", "b"', 'x'.repeat(256)]) {
      const res = await admin
        .post('/api/pages')
        .set('Idempotency-Key', key)
        .send({ slug: 'bad', title: 'Bad', content: '' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(problem(400, 'invalid_idempotency_key'));
    }
    expect(await count(t, 'pages')).toBe(0);
  });

  it('keeps no error answer: a retry after a 409 runs again', async () => {
    await admin.post('/api/pages').send({ slug: 'taken', title: 'T', content: '' }).expect(201);
    const body = { slug: 'taken', title: 'Mine', content: 'x' };
    await admin.post('/api/pages').set('Idempotency-Key', 'retry').send(body).expect(409);
    expect(await keyRows(t)).toBe(0);
    await admin.delete('/api/pages/taken').expect(204);
    const created = await admin
      .post('/api/pages')
      .set('Idempotency-Key', 'retry')
      .send(body)
      .expect(201);
    expect(created.body.title).toBe('Mine');
  });

  it('forgets a key after it expires, and purges expired keys', async () => {
    const send = () =>
      postImport(bearer, {
        format: 'markdown',
        files: [{ name: 'h.zip', data: FOLDER }],
      }).set('Idempotency-Key', 'daily');
    const first = await send().expect(200);
    expect(first.body.counts.created).toBe(3);
    const replay = await send().expect(200);
    expect(replay.body).toEqual(first.body);
    const [row] = await t.dataSource.query('SELECT expires_at FROM idempotency_keys');
    const expires = new Date(
      typeof row.expires_at === 'string' ? row.expires_at.replace(' ', 'T') + 'Z' : row.expires_at,
    );
    const ttl = expires.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(23 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);

    await expireKeys(t);
    const fresh = await send().expect(200);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.body.counts).toMatchObject({ created: 0, unchanged: 3 });

    await expireKeys(t);
    expect(await t.get(IdempotencyStore).purge()).toBe(1);
    expect(await keyRows(t)).toBe(0);
  });
});

describe('Idempotency-Key across instances', () => {
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    one = await createTestApp();
    two = await createPeerApp(one);
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('runs the request once when retries land on two instances at the same time', async () => {
    const bearerOne = await (await signedIn(one, 'admin')).withToken();
    const bearerTwo = new Client(two, bearerOne.auth, bearerOne.user);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postImport(i % 2 === 0 ? bearerOne : bearerTwo, {
          format: 'markdown',
          prefix: 'shared',
          files: [{ name: 'handbook.zip', data: FOLDER }],
        }).set('Idempotency-Key', 'across'),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[0].body);
    }
    expect(answers[0].body.counts.created).toBe(3);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await count(one, 'page_revisions')).toBe(3);
  });

  it('writes on one instance while the other holds a transaction open: both commit', async () => {
    // On SQLite both apps share one file in this process: without a shared turn, the second
    // write would wait in SQLite's busy timeout, synchronously, blocking the loop the first
    // transaction needs to finish, for the whole 10 s timeout (so: the loop's longest stall).
    let last = Date.now();
    let longestStall = 0;
    const ticker = setInterval(() => {
      longestStall = Math.max(longestStall, Date.now() - last);
      last = Date.now();
    }, 20);
    const expires = new Date(Date.now() + 3600_000);
    const held = two.get(Database).transaction(async ({ sql }) => {
      await sql.run(
        `INSERT INTO idempotency_keys (caller, idem_key, fingerprint, claim_id, state, claimed_at, expires_at)
         VALUES ('u:held', 'held', 'f', 'c', 'pending', ?, ?)`,
        [new Date(), expires],
      );
      await sleep(300);
    });
    await sleep(50);
    const claim = await one.get(IdempotencyStore).claim('u:other', 'other', 'f');
    await held;
    clearInterval(ticker);
    expect(claim.kind).toBe('claimed');
    expect(longestStall).toBeLessThan(5000);
    const rows = await one.dataSource.query(
      `SELECT caller FROM idempotency_keys WHERE caller IN ('u:held', 'u:other') ORDER BY caller`,
    );
    expect(rows.map((row: { caller: string }) => row.caller)).toEqual(['u:held', 'u:other']);
  });
});
