import Redis from 'ioredis';
import request from 'supertest';
import { INestApplication } from '@nestjs/common';
import { createApp } from '../../src/app.factory';
import { eventually } from '../support/eventually';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, signedIn } from '../support/users';

const LIMITS = {
  RATE_LIMIT_SEARCH: '3/3600s',
  RATE_LIMIT_READ: '1000/3600s',
  RATE_LIMIT_WRITE: '0',
  RATE_LIMIT_IMPORT: '60/3600s',
  RATE_LIMIT_SYNC_MS: '50',
};

/** `"search";r=2;t=41` → {r, t}. */
function parsed(header: string | undefined, cls: string): { r: number; t: number } {
  const match = new RegExp(`^"${cls}";r=(\\d+);t=(\\d+)$`).exec(header ?? '');
  if (!match) throw new Error(`RateLimit header ${header} is not for ${cls}`);
  return { r: Number(match[1]), t: Number(match[2]) };
}

const WINDOW_MS = 3_600_000;

/**
 * Windows are fixed (aligned to the clock): a test that straddled a window's end would see its
 * counts start over. The tests' windows are an hour long; one that starts in the last minute of
 * a window waits for the next one.
 */
async function awayFromWindowEnd(): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < 60_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

describe('rate limits', () => {
  let t: TestApp;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp(LIMITS);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    reader = await signedIn(t, 'reader');
    await awayFromWindowEnd();
  });

  it('counts search requests down to a 429 problem with Retry-After', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await reader.get('/api/search?q=anything').expect(200);
      expect(res.headers['ratelimit-policy']).toBe('"search";q=3;w=3600');
      const { r, t: reset } = parsed(res.headers['ratelimit'], 'search');
      expect(reset).toBeGreaterThanOrEqual(0);
      expect(reset).toBeLessThanOrEqual(3600);
      remaining.push(r);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const limited = await reader.get('/api/search?q=anything').expect(429);
    expect(limited.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
    expect(limited.body).toEqual(problem(429, 'rate_limited'));
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(parsed(limited.headers['ratelimit'], 'search').r).toBe(0);
    // Other classes keep their own budgets.
    const read = await reader.get('/api/pages').expect(200);
    expect(read.headers['ratelimit-policy']).toBe('"read";q=1000;w=3600');
    expect(parsed(read.headers['ratelimit'], 'read').r).toBe(999);
  });

  it("issue 28 item 4: counts per person: tokens share their owner's quota; not for anonymous callers", async () => {
    // Tokens made before and after the quota is spent: none of them is a fresh quota.
    const early = [
      await reader.withToken({ name: 'one' }),
      await reader.withToken({ name: 'two' }),
    ];
    const first = await early[0].get('/api/search?q=x').expect(200);
    expect(parsed(first.headers['ratelimit'], 'search').r).toBe(2);
    const second = await early[1].get('/api/search?q=x').expect(200);
    expect(parsed(second.headers['ratelimit'], 'search').r).toBe(1);
    const third = await reader.get('/api/search?q=x').expect(200);
    expect(parsed(third.headers['ratelimit'], 'search').r).toBe(0);
    const late = await reader.withToken({ name: 'three' });
    for (const client of [reader, ...early, late]) {
      const refused = await client.get('/api/search?q=x').expect(429);
      expect(refused.body).toEqual(problem(429, 'rate_limited'));
      expect(parsed(refused.headers['ratelimit'], 'search').r).toBe(0);
    }
    // Another person has a quota of their own.
    const other = await signedIn(t, 'reader');
    const theirs = await other.get('/api/search?q=x').expect(200);
    expect(parsed(theirs.headers['ratelimit'], 'search').r).toBe(2);
    const anon = await anonymous(t).get('/api/search?q=x').expect(401);
    expect(anon.headers['ratelimit']).toBeUndefined();
  });

  it('turns a class off with 0: no headers, no limit', async () => {
    const editor = await signedIn(t, 'editor');
    for (let i = 0; i < 5; i++) {
      const res = await editor.post('/api/preview').send({ content: 'x' }).expect(200);
      expect(res.headers['ratelimit']).toBeUndefined();
      expect(res.headers['ratelimit-policy']).toBeUndefined();
    }
  });

  it('shares the counters between instances on the same database', async () => {
    const second: INestApplication = await createApp(t.config);
    try {
      await reader.get('/api/search?q=x').expect(200);
      await reader.get('/api/search?q=x').expect(200);
      // The first instance adds its hits to the database within a sync interval.
      await eventually(async () => {
        const [row] = await t.dataSource.query('SELECT SUM(hits) AS n FROM rate_limit_counters');
        expect(Number(row.n)).toBe(2);
      });
      const viaSecond = (path: string) =>
        request(second.getHttpServer()).get(path).set('Cookie', reader.auth.cookie!);
      const third = await viaSecond('/api/search?q=x').expect(200);
      expect(parsed(third.headers['ratelimit'], 'search').r).toBe(0);
      const refused = await viaSecond('/api/search?q=x').expect(429);
      expect(refused.body).toEqual(problem(429, 'rate_limited'));
    } finally {
      await second.close();
    }
  });
});

describe('rate limits in Redis (REDIS_URL)', () => {
  let t: TestApp;
  const redis = new Redis('redis://127.0.0.1:6379');

  beforeAll(async () => {
    t = await createTestApp({ ...LIMITS, REDIS_URL: 'redis://127.0.0.1:6379' });
  });
  afterAll(async () => {
    await t.close();
    redis.disconnect();
  });

  it('keeps the counters in Redis, shared by instances', async () => {
    const reader = await signedIn(t, 'reader');
    await awayFromWindowEnd();
    await reader.get('/api/search?q=x').expect(200);
    await reader.get('/api/search?q=x').expect(200);
    const key = `kb:rl:search:u:${reader.user!.id}:${Math.floor(Date.now() / WINDOW_MS)}`;
    await eventually(async () => expect(await redis.get(key)).toBe('2'));
    expect(await redis.pttl(key)).toBeGreaterThan(0);
    const second = await createApp(t.config);
    try {
      const viaSecond = () =>
        request(second.getHttpServer()).get('/api/search?q=x').set('Cookie', reader.auth.cookie!);
      expect(parsed((await viaSecond().expect(200)).headers['ratelimit'], 'search').r).toBe(0);
      await viaSecond().expect(429);
    } finally {
      await second.close();
    }
    expect(await t.dataSource.query('SELECT counter_key FROM rate_limit_counters')).toEqual([]);
  });
});
