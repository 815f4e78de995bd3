import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectConfig } from '../common/config/app-config';
import type { WebhooksConfig } from '../common/config/webhooks-config';
import { DeliveryWithEvent, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { sendWebhook } from './webhook-sender';
import { signWebhook } from './webhook-signature';
import { WebhooksRepository } from './webhooks.repository';

/** Deliveries sent per round (each the oldest pending one of its webhook and page). */
const BATCH = 20;

/** The Standard Webhooks payload: `{type, timestamp, data}` (the event's own time). */
export function webhookPayload(delivery: DeliveryWithEvent): string {
  return `{"type":${JSON.stringify(delivery.event.type)},"timestamp":${JSON.stringify(
    delivery.event.occurredAt.toISOString(),
  )},"data":${delivery.event.data}}`;
}

/** The wait before try `tries + 1`: the base, then twice as long each time (at most a day). */
export function retryDelayMs(baseMs: number, tries: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, tries - 1), 86_400_000);
}

/**
 * Sends the durable outbox: polls for due deliveries (and at once when an event is recorded),
 * leases each so that one instance sends it, signs it with the webhook's secret, and records
 * the attempt. Failed attempts wait with exponential backoff; a delivery keeps its id (the
 * `webhook-id`) on every attempt, so receivers can deduplicate. Anything not yet delivered when
 * kb stops is sent after the next start: at least once.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    @InjectConfig('webhooks') private readonly webhooksConfig: WebhooksConfig,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly webhooks: WebhooksRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Something is due now (an event was recorded, a delivery was queued again). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.round().finally(() => {
        this.running = null;
        const again = this.again;
        this.again = false;
        this.schedule(again ? 0 : this.webhooksConfig.pollMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    try {
      let sent = BATCH;
      while (sent === BATCH && !this.stopped) {
        const due = await this.deliveries.listDue(new Date(), BATCH);
        sent = due.length;
        await Promise.all(due.map((delivery) => this.attempt(delivery)));
      }
    } catch (error) {
      this.logger.error({ msg: 'webhook round failed', error: messageOf(error) });
    }
  }

  private async attempt(delivery: DeliveryWithEvent): Promise<void> {
    const { timeoutMs, allowPrivate, retryBaseMs, maxAttempts } = this.webhooksConfig;
    const now = new Date();
    const leaseUntil = new Date(now.getTime() + timeoutMs + 30_000);
    if (!(await this.deliveries.lease(delivery.id, now, leaseUntil))) return;
    const webhook = await this.webhooks.find(delivery.webhookId);
    if (!webhook) return;
    const body = webhookPayload(delivery);
    const headers = signWebhook(webhook.secret, delivery.id, new Date(), body);
    const result = await sendWebhook(webhook.url, { ...headers }, body, {
      timeoutMs,
      allowPrivate,
    });
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const tries = delivery.tries + 1;
    const attemptedAt = new Date();
    await this.deliveries.recordAttempt(
      {
        deliveryId: delivery.id,
        attemptedAt,
        statusCode: result.statusCode,
        error: ok ? null : (result.error ?? `receiver answered ${result.statusCode}`),
        durationMs: result.durationMs,
      },
      {
        state: ok ? 'delivered' : tries >= maxAttempts ? 'failed' : 'pending',
        tries,
        nextAttemptAt: new Date(attemptedAt.getTime() + retryDelayMs(retryBaseMs, tries)),
      },
    );
    if (!ok) {
      this.logger.warn({
        msg: 'webhook attempt failed',
        webhookId: webhook.id,
        deliveryId: delivery.id,
        tries,
        status: result.statusCode,
        error: result.error,
      });
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
