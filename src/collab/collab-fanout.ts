import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import cluster from 'node:cluster';
import { isClusterMessage } from '../common/cluster/cluster-messages';
import { AppConfig, InjectConfig } from '../common/config/app-config';

type Handler = (pageId: string, message: Uint8Array) => void;

/**
 * Who edits which page through one process (user ids by page id), said every few seconds and
 * whenever it changes; `query`: a process that just started asks the others to say theirs.
 */
export interface PresenceSummary {
  from: string;
  pages: Record<string, string[]>;
  query?: boolean;
}

const CHANNEL_PREFIX = 'kb:collab:';
/** The presence summaries of every process (one channel, not one per page). */
const PRESENCE_CHANNEL = 'kb:collab-presence';
/** The IPC page id of a presence summary (page ids are UUIDs, never empty). */
const PRESENCE_IPC = '';

/**
 * Sends a session's updates and presence to the same page's sessions in other processes:
 * through Redis pub/sub when REDIS_URL is set (every instance and worker), else through the
 * cluster primary to the other workers (KB_WORKERS > 1), else nowhere (one process).
 */
@Injectable()
export class CollabFanout implements OnModuleDestroy {
  private readonly logger = new Logger(CollabFanout.name);
  private handler: Handler = () => undefined;
  private presenceHandler: (summary: PresenceSummary) => void = () => undefined;
  private readonly pub: Redis | null;
  private readonly sub: Redis | null;
  private readonly ipc = cluster.isWorker && typeof process.send === 'function';
  private readonly onIpc = (message: unknown) => {
    if (!isClusterMessage(message) || message.kb !== 'collab') return;
    if (message.pageId === PRESENCE_IPC) this.heard(Buffer.from(message.data, 'base64'));
    else this.handler(message.pageId, new Uint8Array(Buffer.from(message.data, 'base64')));
  };

  constructor(@InjectConfig('rateLimit') config: AppConfig['rateLimit']) {
    if (config.redisUrl) {
      const options = { lazyConnect: false, maxRetriesPerRequest: 2 };
      this.pub = new Redis(config.redisUrl, options);
      this.sub = new Redis(config.redisUrl, options);
      for (const client of [this.pub, this.sub])
        client.on('error', (error: Error) =>
          this.logger.warn({ msg: 'collab redis', error: error.message }),
        );
      this.sub.on('messageBuffer', (channel: Buffer, data: Buffer) => {
        // Each message starts with the publishing process's tag: its own come back, skipped.
        if (data.subarray(0, 16).equals(this.tag)) return;
        const name = channel.toString();
        if (name === PRESENCE_CHANNEL) return this.heard(data.subarray(16));
        this.handler(name.slice(CHANNEL_PREFIX.length), new Uint8Array(data.subarray(16)));
      });
      void this.sub.subscribe(PRESENCE_CHANNEL).catch(() => undefined);
    } else {
      this.pub = null;
      this.sub = null;
      if (this.ipc) process.on('message', this.onIpc);
    }
  }

  private readonly tag = Buffer.from(crypto.getRandomValues(new Uint8Array(16)));
  /** This process, in the presence summaries. */
  readonly id = this.tag.toString('hex');

  onMessage(handler: Handler): void {
    this.handler = handler;
  }

  onPresence(handler: (summary: PresenceSummary) => void): void {
    this.presenceHandler = handler;
  }

  private heard(data: Buffer): void {
    try {
      this.presenceHandler(JSON.parse(data.toString()) as PresenceSummary);
    } catch {
      // Not a summary (another version of kb): ignored.
    }
  }

  /**
   * Resolves once this process hears the page's channel (at once without Redis; with Redis
   * away, once that failed: the session then runs on this process alone, and says so).
   */
  async subscribe(pageId: string): Promise<void> {
    await this.sub?.subscribe(CHANNEL_PREFIX + pageId).catch((error: Error) => {
      this.logger.warn({ msg: 'collab redis subscribe failed', pageId, error: error.message });
    });
  }

  unsubscribe(pageId: string): void {
    void this.sub?.unsubscribe(CHANNEL_PREFIX + pageId).catch(() => undefined);
  }

  publish(pageId: string, message: Uint8Array): void {
    if (this.pub) {
      void this.pub
        .publish(CHANNEL_PREFIX + pageId, Buffer.concat([this.tag, message]))
        .catch(() => undefined);
    } else if (this.ipc) {
      process.send!({ kb: 'collab', pageId, data: Buffer.from(message).toString('base64') });
    }
  }

  publishPresence(summary: PresenceSummary): void {
    const data = Buffer.from(JSON.stringify(summary));
    if (this.pub) {
      void this.pub
        .publish(PRESENCE_CHANNEL, Buffer.concat([this.tag, data]))
        .catch(() => undefined);
    } else if (this.ipc) {
      process.send!({ kb: 'collab', pageId: PRESENCE_IPC, data: data.toString('base64') });
    }
  }

  onModuleDestroy(): void {
    this.pub?.disconnect();
    this.sub?.disconnect();
    if (this.ipc) process.off('message', this.onIpc);
  }
}
