import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AuthUser } from '../common/auth/auth-user';
import { InjectConfig } from '../common/config/app-config';
import type { WebhooksConfig } from '../common/config/webhooks-config';
import { Created, locationOf } from '../common/http/created';
import { cursorString, encodeCursor, Paged, ListRequest } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import { fieldProblem, NotFoundProblem } from '../common/problems/problem';
import { hostOf, isPrivateAddress } from './destination-guard';
import type { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';
import type {
  WebhookCreatedResponse,
  WebhookDeliveryResponse,
  WebhookResponse,
} from './dto/webhook-response.dto';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { newWebhookSecret, secretBytes } from './webhook-signature';
import { toDeliveryResponse, toWebhookCreated, toWebhookResponse } from './webhooks.mapper';
import { WebhookRecord, WebhooksRepository } from './webhooks.repository';

/** Admin-managed webhook subscriptions, their deliveries, and redelivery. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectConfig('webhooks') private readonly webhooksConfig: WebhooksConfig,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  /** Answers the signing secret, here only. */
  async create(body: CreateWebhookDto, actor: AuthUser): Promise<Created<WebhookCreatedResponse>> {
    const now = new Date();
    const webhook: WebhookRecord = {
      id: randomUUID(),
      url: await this.checkedUrl(body.url),
      events: [...new Set(body.events)],
      secret: body.secret === undefined ? newWebhookSecret() : checkedSecret(body.secret),
      active: body.active ?? true,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    };
    await this.webhooks.insert(webhook);
    audit('webhook.created', { actorId: actor.id, target: `webhook:${webhook.id}` });
    return new Created(toWebhookCreated(webhook), locationOf('webhooks', webhook.id));
  }

  /** Every webhook, without secrets, in one page. */
  async list(): Promise<Paged<WebhookResponse>> {
    return { items: (await this.webhooks.list()).map(toWebhookResponse), nextCursor: null };
  }

  async get(id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.find(id));
  }

  async update(id: string, body: UpdateWebhookDto, actor: AuthUser): Promise<WebhookResponse> {
    const current = await this.find(id);
    const next: WebhookRecord = {
      ...current,
      url: body.url === undefined ? current.url : await this.checkedUrl(body.url),
      events: body.events === undefined ? current.events : [...new Set(body.events)],
      secret: body.secret === undefined ? current.secret : checkedSecret(body.secret),
      active: body.active ?? current.active,
      updatedAt: new Date(),
    };
    if (!(await this.webhooks.update(next))) throw new NotFoundProblem('webhook');
    audit('webhook.updated', { actorId: actor.id, target: `webhook:${id}` });
    if (next.active) this.dispatcher.kick();
    return toWebhookResponse(next);
  }

  private async find(id: string): Promise<WebhookRecord> {
    const webhook = await this.webhooks.find(id);
    if (!webhook) throw new NotFoundProblem('webhook');
    return webhook;
  }

  async remove(id: string, actor: AuthUser): Promise<void> {
    if (!(await this.webhooks.remove(id))) throw new NotFoundProblem('webhook');
    audit('webhook.deleted', { actorId: actor.id, target: `webhook:${id}` });
  }

  /** A webhook's deliveries, newest first, each with its attempts. */
  async listDeliveries(id: string, page: ListRequest): Promise<Paged<WebhookDeliveryResponse>> {
    await this.find(id);
    const before = page.cursor ? Number(cursorString(page.cursor, 's')) : null;
    const rows = await this.deliveries.list(
      id,
      Number.isFinite(before) ? before : null,
      page.limit + 1,
    );
    const shown = rows.slice(0, page.limit);
    const attempts = await this.deliveries.attemptsOf(shown.map((d) => d.id));
    return {
      items: shown.map((d) =>
        toDeliveryResponse(
          d,
          attempts.filter((a) => a.deliveryId === d.id),
        ),
      ),
      nextCursor:
        rows.length > page.limit
          ? encodeCursor({ s: String(shown[shown.length - 1].eventSeq) })
          : null,
    };
  }

  /** Sends a delivery again now (the same webhook-id), whatever its state. */
  async redeliver(
    id: string,
    deliveryId: string,
    actor: AuthUser,
  ): Promise<WebhookDeliveryResponse> {
    await this.find(id);
    const delivery = await this.deliveries.find(id, deliveryId);
    if (!delivery) throw new NotFoundProblem('delivery');
    const now = new Date();
    await this.deliveries.requeue(deliveryId, now);
    audit('webhook.redelivered', { actorId: actor.id, target: `webhook:${id}`, deliveryId });
    // The answer is the delivery as queued: the dispatcher may send it before a re-read.
    const attempts = await this.deliveries.attemptsOf([deliveryId]);
    this.dispatcher.kick();
    return toDeliveryResponse(
      { ...delivery, state: 'pending', tries: 0, nextAttemptAt: now },
      attempts,
    );
  }

  /**
   * An http(s) URL whose host is not (and does not resolve only to) a private or loopback
   * address. The dispatcher checks again on every attempt, against the address it connects to.
   */
  private async checkedUrl(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw fieldProblem('url', 'invalid_url', 'url must be an absolute http or https URL.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw fieldProblem('url', 'invalid_url', 'url must be an absolute http or https URL.');
    if (this.webhooksConfig.allowPrivate) return url.toString();
    const host = hostOf(url);
    const addresses = isIP(host)
      ? [host]
      : await lookup(host, { all: true }).then(
          (found) => found.map((a) => a.address),
          () => [] as string[],
        );
    if (addresses.length > 0 && addresses.every(isPrivateAddress)) {
      throw fieldProblem(
        'url',
        'private_destination',
        'url points to a private or loopback address, which webhooks may not reach.',
      );
    }
    return url.toString();
  }
}

function checkedSecret(secret: string): string {
  if (!secretBytes(secret))
    throw fieldProblem(
      'secret',
      'invalid_secret',
      'secret must be whsec_ + base64 of 24 to 64 bytes.',
    );
  return secret;
}
