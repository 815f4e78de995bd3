import Redis from 'ioredis';
import type { Database } from '../database/database';

/** Where the shared request counters live: the database, or Redis when REDIS_URL is set. */
export interface CounterStore {
  /** Adds `hits` to a counter that ends at `expiresAt`; answers its new total. */
  add(key: string, hits: number, expiresAt: Date): Promise<number>;
  read(key: string): Promise<number>;
  /** Drops counters of windows that have ended. */
  purge(now: Date): Promise<void>;
  close(): Promise<void>;
}

/** The one door to `rate_limit_counters`. */
export class DatabaseCounterStore implements CounterStore {
  constructor(private readonly db: Database) {}

  async add(key: string, hits: number, expiresAt: Date): Promise<number> {
    return this.db.write(async ({ sql }) => {
      await sql.run(
        sql.dialect.upsert(
          'rate_limit_counters',
          ['counter_key', 'hits', 'expires_at'],
          ['counter_key'],
          {
            hits: `hits + ${sql.dialect.inserted('hits')}`,
          },
        ),
        [key, hits, expiresAt],
      );
      return this.read(key);
    });
  }

  async read(key: string): Promise<number> {
    const [row] = await this.db
      .sql()
      .all<{ hits: number | string }>(
        'SELECT hits FROM rate_limit_counters WHERE counter_key = ?',
        [key],
      );
    return Number(row?.hits ?? 0);
  }

  async purge(now: Date): Promise<void> {
    await this.db.write(({ sql }) =>
      sql.run('DELETE FROM rate_limit_counters WHERE expires_at < ?', [now]),
    );
  }

  async close(): Promise<void> {}
}

export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  }

  async add(key: string, hits: number, expiresAt: Date): Promise<number> {
    const result = await this.redis
      .multi()
      .incrby(`kb:rl:${key}`, hits)
      .pexpireat(`kb:rl:${key}`, expiresAt.getTime())
      .exec();
    const [error, total] = result?.[0] ?? [new Error('redis: no answer'), 0];
    if (error) throw error;
    return Number(total);
  }

  async read(key: string): Promise<number> {
    return Number((await this.redis.get(`kb:rl:${key}`)) ?? 0);
  }

  /** Redis expires the keys itself. */
  async purge(): Promise<void> {}

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
