import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions } from 'typeorm';
import type { ReadContext } from './read-context';
import type { ReadQuery, Sql } from './sql';

/** How long a replica that failed is left alone before it is tried again. */
const DOWN_FOR_MS = 5_000;

interface Replica {
  url: string;
  source: DataSource;
  connecting: Promise<DataSource> | null;
  downUntil: number;
}

export interface ReplicaReadsOptions {
  /** The primary's data source options; each replica gets them with its own URL. */
  options: DataSourceOptions;
  urls: string[];
  /** DATABASE_REPLICA_STICKY_SECONDS. */
  stickySeconds: number;
  /** `Sql` on a data source (the primary's driver class, so rows convert alike). */
  sqlOn: (source: DataSource) => Sql;
  /** `Sql` on the primary. */
  primary: Sql;
}

/**
 * Read replicas (DATABASE_REPLICA_URLS, MySQL/MariaDB): runs lag-tolerant ReadQueries on a
 * replica, in turn, unless
 * - the request writes (everything of a write request reads the primary), or
 * - its user wrote within DATABASE_REPLICA_STICKY_SECONDS (user_write_marks, on the primary's
 *   clock, so this holds whichever instance the next request reaches): read-your-writes, or
 * - no replica answers: a replica whose connection or query fails is left alone for 5 s and
 *   the read runs on the primary instead (a replica outage costs no request).
 */
export class ReplicaReads {
  private readonly logger = new Logger('ReplicaReads');
  private readonly replicas: Replica[];
  private next = 0;

  constructor(private readonly options: ReplicaReadsOptions) {
    this.replicas = options.urls.map((url) => ({
      url,
      source: new DataSource({
        ...options.options,
        url,
        entities: [],
        migrations: [],
        migrationsRun: false,
      } as DataSourceOptions),
      connecting: null,
      downUntil: 0,
    }));
  }

  /** Records that `userId` wrote now; awaited before the write's response goes out. */
  async markWrite(userId: string): Promise<void> {
    await this.options.primary.run(
      'INSERT INTO user_write_marks (user_id, written_at) VALUES (?, CURRENT_TIMESTAMP(3)) ' +
        'ON DUPLICATE KEY UPDATE written_at = CURRENT_TIMESTAMP(3)',
      [userId],
    );
  }

  /** Runs `query` on a replica when `context` allows it, else (or when none answers) on `primary`. */
  async read<A extends unknown[], R>(
    context: ReadContext | undefined,
    query: ReadQuery<A, R>,
    args: A,
    onPrimary: () => Promise<R>,
  ): Promise<R> {
    if (context?.primary) return onPrimary();
    if (context?.userId && (await this.wroteRecently(context.userId))) return onPrimary();
    const replica = this.pick();
    if (!replica) return onPrimary();
    try {
      const source = await this.connected(replica);
      return await query.run(this.options.sqlOn(source), ...args);
    } catch (error) {
      replica.downUntil = Date.now() + DOWN_FOR_MS;
      this.logger.warn({
        msg: 'read replica failed: reading from the primary',
        replica: redact(replica.url),
        error: String(error),
      });
      return onPrimary();
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      this.replicas.map((r) => (r.source.isInitialized ? r.source.destroy() : undefined)),
    );
  }

  private async wroteRecently(userId: string): Promise<boolean> {
    if (this.options.stickySeconds === 0) return false;
    const rows = await this.options.primary.all(
      'SELECT 1 AS wrote FROM user_write_marks WHERE user_id = ? ' +
        'AND written_at > CURRENT_TIMESTAMP(3) - INTERVAL ? SECOND',
      [userId, this.options.stickySeconds],
    );
    return rows.length > 0;
  }

  /** The next replica in turn that is not left alone. */
  private pick(): Replica | undefined {
    const now = Date.now();
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length];
      if (replica.downUntil <= now) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return replica;
      }
    }
    return undefined;
  }

  private connected(replica: Replica): Promise<DataSource> {
    if (replica.source.isInitialized) return Promise.resolve(replica.source);
    replica.connecting ??= replica.source.initialize().finally(() => (replica.connecting = null));
    return replica.connecting;
  }
}

/** A URL without its password, for logs. */
function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
