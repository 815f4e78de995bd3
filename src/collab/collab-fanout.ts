import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import cluster from 'node:cluster';
import { isClusterMessage } from '../common/cluster/cluster-messages';
import { AppConfig, InjectConfig } from '../common/config/app-config';

type Handler = (pageId: string, message: Uint8Array) => void;

const CHANNEL_PREFIX = 'kb:collab:';

/**
 * Sends a session's updates and presence to the same page's sessions in other processes:
 * through Redis pub/sub when REDIS_URL is set (every instance and worker), else through the
 * cluster primary to the other workers (KB_WORKERS > 1), else nowhere (one process).
 */
@Injectable()
export class CollabFanout implements OnModuleDestroy {
  private readonly logger = new Logger(CollabFanout.name);
  private handler: Handler = () => undefined;
  private readonly pub: Redis | null;
  private readonly sub: Redis | null;
  private readonly ipc = cluster.isWorker && typeof process.send === 'function';
  private readonly onIpc = (message: unknown) => {
    if (isClusterMessage(message) && message.kb === 'collab')
      this.handler(message.pageId, new Uint8Array(Buffer.from(message.data, 'base64')));
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
        const pageId = channel.toString().slice(CHANNEL_PREFIX.length);
        // Each message starts with the publishing process's tag: its own come back, skipped.
        if (data.subarray(0, 16).equals(this.tag)) return;
        this.handler(pageId, new Uint8Array(data.subarray(16)));
      });
    } else {
      this.pub = null;
      this.sub = null;
      if (this.ipc) process.on('message', this.onIpc);
    }
  }

  private readonly tag = Buffer.from(crypto.getRandomValues(new Uint8Array(16)));

  onMessage(handler: Handler): void {
    this.handler = handler;
  }

  subscribe(pageId: string): void {
    void this.sub?.subscribe(CHANNEL_PREFIX + pageId).catch(() => undefined);
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

  onModuleDestroy(): void {
    this.pub?.disconnect();
    this.sub?.disconnect();
    if (this.ipc) process.off('message', this.onIpc);
  }
}
